-- A large re-synchronisation written in steps (lib/ingest/lifecycle/write-generations.ts): the new chunks are the
-- datasource's next generation, hidden from searches until the last step swaps them with the old ones, which are then
-- deleted in steps while hidden. Written in one transaction, a re-synchronisation of a 7 MB file held the embedded
-- database (one session) for seconds while every question waited. Constant defaults: no table is rewritten.
ALTER TABLE "Chunk" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Datasource" ADD COLUMN "contentGeneration" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Datasource" ADD COLUMN "hiddenGeneration" INTEGER;
-- the searches' scope reads the hidden generations of the searched datastores on every statement: the few
-- datasources in a re-synchronisation, found without reading the others
CREATE INDEX "Datasource_datastoreId_hiddenGeneration_idx" ON "Datasource" ("datastoreId", "hiddenGeneration") WHERE "hiddenGeneration" IS NOT NULL;
