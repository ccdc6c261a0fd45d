-- A chunk's organization and datastore are its datasource's, copied into the row for the rankings' scope (issue 28).
--
-- Only "datasourceId" stays a foreign key: its ON DELETE CASCADE removes the chunks of a deleted datasource, and
-- through the datasource's own keys those of a deleted datastore or organization. The two others checked, on every
-- chunk written, that the organization and the datastore exist — a lookup and a row lock each (FOR KEY SHARE), ~0.14 ms
-- a chunk on the embedded database (bench:ingest-profile's SQL experiment: 0.42 ms for the three keys, a third of the
-- chunk INSERT's 1.2 ms) — without checking what matters, that they are the datasource's: the application writes
-- them from the datasource's row (lib/ingest/lifecycle/write-chunks.ts).
ALTER TABLE "Chunk" DROP CONSTRAINT "Chunk_organizationId_fkey";
ALTER TABLE "Chunk" DROP CONSTRAINT "Chunk_datastoreId_fkey";
