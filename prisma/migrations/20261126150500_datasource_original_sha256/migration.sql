-- Issue 15, duplicate detection (lib/datastores/duplicates.ts): an upload or upsert looks up the SHA-256 of its
-- content among the datastore's datasources (config->>'sha256', written at creation). An expression index, so the
-- look-up stays one index probe in a datastore of many datasources; partial: only datasources that carry the hash.
-- (The "contentHash" column is the hash of the extracted text and chunking, written by the sync: not known at upload.)
CREATE INDEX "Datasource_datastoreId_sha256_idx" ON "Datasource" ("datastoreId", (config->>'sha256')) WHERE config ? 'sha256';
