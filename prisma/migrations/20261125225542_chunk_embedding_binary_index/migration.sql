-- The vector index becomes an HNSW index over the binary quantization of the embeddings (one bit per dimension,
-- Hamming distance); lib/search re-ranks its candidates by exact cosine distance on the full vectors.
-- Measured on PGlite (WebAssembly, no SIMD) with 20,000 chunks of 1536 dimensions: an insert costs ~1.4 ms instead
-- of ~7 ms, the index builds ~7× faster, and recall@10 with 100 re-ranked candidates is ~0.94 against ~0.72 for the
-- full-precision index at ef_search 40 (docs/benchmarks.md). Same name, same partial predicate.
DROP INDEX IF EXISTS "Chunk_embedding_1536_idx";
CREATE INDEX "Chunk_embedding_1536_idx" ON "Chunk" USING hnsw ((binary_quantize("embedding")::bit(1536)) bit_hamming_ops) WHERE vector_dims("embedding") = 1536;
