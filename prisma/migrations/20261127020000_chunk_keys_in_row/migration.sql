-- A chunk's keys back in its row (issue 28).
--
-- Since "Chunk".tsv is STORAGE MAIN (20261126130000_bm25_search), a chunk of a few hundred words keeps a row over
-- PostgreSQL's TOAST threshold (~2 kB) whatever else is moved out, so the toaster went on to move every other
-- EXTENDED or EXTERNAL value larger than a TOAST pointer (24 bytes) out of the row: the text and the embedding, but
-- also id, "organizationId", "datastoreId" and "datasourceId" (a 25-character cuid is 26 bytes). Every ranking then
-- read each candidate's organization and datastore (the scope) and id from the TOAST table: three buffer reads and a
-- copy each, ~6 of the ~10 µs a BM25 candidate cost at 10,000 chunks (docs/benchmarks.md, issue 28).
--
-- STORAGE MAIN keeps a value in the row unless the row is still over ~8 kB once everything else is out, and then
-- the largest MAIN value goes first (the tsvector, never a 26-byte key). metadata (read by the filters) likewise.
-- The embedding stays EXTERNAL (pgvector's default): as MAIN, a small one would stay in the row too (the vector
-- ranking at 64 dimensions: 6.2 → 4.2 ms at 10,000 chunks), but every insert of a 1536-dimension one would first try
-- to compress it in vain (ingest with embeddings 0.86× the chunks a second, +0.8 ms of CPU a chunk).
ALTER TABLE "Chunk"
  ALTER COLUMN "id" SET STORAGE MAIN,
  ALTER COLUMN "organizationId" SET STORAGE MAIN,
  ALTER COLUMN "datastoreId" SET STORAGE MAIN,
  ALTER COLUMN "datasourceId" SET STORAGE MAIN,
  ALTER COLUMN "metadata" SET STORAGE MAIN;

-- Existing rows, written again with new copies of those values (an unchanged TOAST pointer would be kept as it is).
-- The same values: no user trigger needs to run (the tsvector and the statistics do not change), foreign keys are
-- still checked. About 0.8 ms a chunk on PGlite (the indexes get the new row versions); the embedded database is
-- vacuumed after migrating (lib/db/client.ts), PostgreSQL's autovacuum reclaims the old versions.
ALTER TABLE "Chunk" DISABLE TRIGGER USER;
UPDATE "Chunk" SET
  "id" = "id" || '',
  "organizationId" = "organizationId" || '',
  "datastoreId" = "datastoreId" || '',
  "datasourceId" = "datasourceId" || '',
  "metadata" = "metadata" || '{}'::jsonb;
ALTER TABLE "Chunk" ENABLE TRIGGER USER;
