-- The binary-quantized vector index keeps 12 links a node instead of pgvector's default 16 (lib/db/vector-index.ts
-- BINARY_INDEX_LINKS, which indexes of other sizes created at run time use too). Each insert rewrites fewer
-- neighbours' link lists: on PGlite the index's share of a 1536-dimension chunk write went from ~1.9 to ~1.1 ms, and
-- recall@10 after re-ranking stayed 0.993 over SciFact (docs/benchmarks.md, "Ingest CPU profile").
-- The index is rebuilt: on a large datastore this migration takes as long as the index's build (PGlite: ~6 s at
-- 10,000 chunks, ~2 min at 100,000; PostgreSQL about a third of that), once.
DROP INDEX IF EXISTS "Chunk_embedding_1536_idx";
CREATE INDEX "Chunk_embedding_1536_idx" ON "Chunk" USING hnsw ((binary_quantize("embedding")::bit(1536)) bit_hamming_ops) WITH (m = 12) WHERE vector_dims("embedding") = 1536;
