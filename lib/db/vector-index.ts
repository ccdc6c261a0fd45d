import type { SqlDriver } from './sql-driver'
import { logger } from '@/lib/logger'

// pgvector's HNSW index on bits takes up to 64,000 dimensions
const HNSW_MAX_BITS = 64_000

// per database (a process has one; test files each open their own), per size
const ensured = new WeakMap<SqlDriver, Map<number, Promise<void>>>()

// Postgres advisory lock of the index creation (lib/db/advisory-lock.ts holds the others)
const VECTOR_INDEX_LOCK = 72_707_371

export function vectorIndexName(dimensions: number): string {
  return `Chunk_embedding_${dimensions}_idx`
}

// Embeddings of up to this many dimensions are indexed as they are (HNSW over the vectors, cosine distance); larger
// ones by their binary quantization. A bit per dimension ranks well only with many dimensions: at 64 the Hamming
// distance takes 65 values, and the 400 re-ranked candidates held 0.82 of the true ten nearest of dense vectors
// (tests/db/vector-index.test.ts), 0.47 of the bench's sparser ones at 10,000 chunks (docs/benchmarks.md), against
// 0.96–1 whole; and a small vector costs the index little to keep whole (HNSW build 3.1 against 2.8 s at 64).
export const FULL_PRECISION_MAX_DIMENSIONS = 256

// Links a node of the binary index keeps (layer 0: twice as many). pgvector's default is 16; with 12 an insert costs
// PGlite ~0.6× the index work (each new node rewrites fewer neighbours' lists) and recall@10 after re-ranking held:
// 0.993 with 12 and with 16 over SciFact's 5,183 abstracts and 100 claims (0.967 with 8); docs/benchmarks.md.
export const BINARY_INDEX_LINKS = 12

export type VectorIndexKind = 'full-precision' | 'binary'

export function vectorIndexKind(dimensions: number): VectorIndexKind {
  return dimensions <= FULL_PRECISION_MAX_DIMENSIONS ? 'full-precision' : 'binary'
}

/**
 * The index of embeddings of `dimensions`, partial to rows of that size: HNSW over the vectors themselves (cosine
 * distance) up to FULL_PRECISION_MAX_DIMENSIONS, else HNSW over their binary quantization (a bit per dimension,
 * Hamming distance), whose candidates are re-ranked by exact cosine distance (hybrid-search.ts): on PGlite this keeps
 * inserts of 1536 dimensions ~5× cheaper than a full-precision index, with a better recall after re-ranking; with
 * BINARY_INDEX_LINKS links a node. The migration creates it for 1536; this text is the same (tests/migrations.test.ts).
 */
export function vectorIndexDefinition(dimensions: number): string {
  const method = vectorIndexKind(dimensions) === 'full-precision'
    ? `hnsw (("embedding"::vector(${dimensions})) vector_cosine_ops)`
    : `hnsw ((binary_quantize("embedding")::bit(${dimensions})) bit_hamming_ops) WITH (m = ${BINARY_INDEX_LINKS})`
  return `CREATE INDEX "${vectorIndexName(dimensions)}" ON "Chunk" USING ${method} WHERE vector_dims("embedding") = ${dimensions}`
}

/** Whether an index definition read from pg_indexes is of the kind this size takes. */
function isOfKind(indexdef: string, kind: VectorIndexKind): boolean {
  return kind === 'binary' ? indexdef.includes('binary_quantize') : indexdef.includes('vector_cosine_ops')
}

/**
 * The index for embeddings of `dimensions`, created once per process when missing (the migration has the one for
 * 1536). Vector search uses it only when its query repeats the index's expression and predicate, as hybrid-search.ts
 * does. Call it before writing or searching embeddings of a new size.
 */
export function ensureVectorIndex(sql: SqlDriver, dimensions: number): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`invalid embedding dimensions ${dimensions}`)
  let sizes = ensured.get(sql)
  if (!sizes) ensured.set(sql, (sizes = new Map()))
  let pending = sizes.get(dimensions)
  if (!pending) {
    pending = createIndex(sql, dimensions)
    pending.catch(() => sizes.delete(dimensions))
    sizes.set(dimensions, pending)
  }
  return pending
}

/** The index's definition in this schema, or null; an invalid one (a failed concurrent build) counts as none. */
async function indexDefinition(sql: Pick<SqlDriver, 'query'>, name: string): Promise<string | null> {
  const rows = await sql.query<{ indexdef: string; valid: boolean }>(
    `SELECT i.indexdef, x.indisvalid AS valid FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = i.schemaname)
       JOIN pg_index x ON x.indexrelid = c.oid
      WHERE i.schemaname = current_schema() AND i.tablename = 'Chunk' AND i.indexname = $1`,
    [name],
  )
  return rows[0]?.valid ? rows[0].indexdef : null
}

/**
 * Creates the index unless a valid one of this size's kind exists (one of the other kind, from an earlier version, is
 * rebuilt: logged with its duration). On Postgres, under an advisory lock in one
 * transaction: processes starting together (workers, test files on one server) create it one after the other.
 * (CREATE INDEX CONCURRENTLY, tried first, deadlocked when two ran at once on one database and left an invalid
 * index behind; the build takes a write lock on "Chunk" for as long as one scan of it takes, once per new size.)
 */
async function createIndex(sql: SqlDriver, dimensions: number): Promise<void> {
  if (dimensions > HNSW_MAX_BITS) {
    logger.warn('embeddings have more dimensions than an HNSW index takes: vector search scans them exactly', { dimensions })
    return
  }
  const name = vectorIndexName(dimensions)
  const started = Date.now()
  const created = await sql.transaction(async tx => {
    if (tx.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [VECTOR_INDEX_LOCK])
    const existing = await indexDefinition(tx, name)
    if (existing && isOfKind(existing, vectorIndexKind(dimensions))) return false
    // an index of the other kind, or an invalid one, under this name is replaced
    await tx.exec(`DROP INDEX IF EXISTS "${name}"`)
    await tx.exec(vectorIndexDefinition(dimensions))
    return true
  })
  if (created) logger.info('created a vector index', { index: name, kind: vectorIndexKind(dimensions), ms: Date.now() - started })
}
