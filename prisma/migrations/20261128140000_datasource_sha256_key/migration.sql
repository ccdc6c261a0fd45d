-- The duplicate look-up (lib/datastores/duplicates.ts) as one probe of an index per hash, whatever the planner knows
-- (issue 28). The index of 20261126150500 led with "datastoreId", which two other indexes of "Datasource" lead with
-- too; without statistics for the table (a new datastore, or before the embedded database's maintenance analyses it)
-- the planner took a datastore for a few rows and read all of its datasources by one of those, testing each against
-- the 100 hashes of an upsert: 2 → 13 ms a look-up as a SciFact import grew from 0 to 1,500 datasources, linear in
-- the datastore's size. Keyed by the datastore and the hash together, one expression only this index has, the
-- look-up can only be that index's probes (or a sequential scan, for a table of a few pages): ~1.5 ms at 1,500
-- datasources, and so at any size.
DROP INDEX "Datasource_datastoreId_sha256_idx";
CREATE INDEX "Datasource_datastoreId_sha256_key_idx" ON "Datasource" (("datastoreId" || ' ' || (config->>'sha256'))) WHERE config ? 'sha256';
