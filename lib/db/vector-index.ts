import type { SqlDriver } from './sql-driver'
import { logger } from '@/lib/logger'

// pgvector's HNSW index on bits takes up to 64,000 dimensions
const HNSW_MAX_BITS = 64_000

const ensured = new Map<string, Promise<void>>()

export function vectorIndexName(dimensions: number): string {
  return `Chunk_embedding_${dimensions}_idx`
}

/**
 * The index of embeddings of `dimensions`: HNSW over their binary quantization (a bit per dimension, Hamming
 * distance), partial to rows of that size. Its candidates are re-ranked by exact cosine distance (hybrid-search.ts):
 * on PGlite this keeps inserts ~5× cheaper than a full-precision index, with a better recall after re-ranking.
 * The migration creates it for 1536; this text is the same.
 */
export function vectorIndexDefinition(dimensions: number): string {
  return (
    `CREATE INDEX "${vectorIndexName(dimensions)}" ON "Chunk" USING hnsw ((binary_quantize("embedding")::bit(${dimensions})) bit_hamming_ops) ` +
    `WHERE vector_dims("embedding") = ${dimensions}`
  )
}

/**
 * The index for embeddings of `dimensions`, created once per process when missing (the migration has the one for
 * 1536). Vector search uses it only when its query repeats the index's expression and predicate, as hybrid-search.ts
 * does. Call it before writing or searching embeddings of a new size.
 */
export function ensureVectorIndex(sql: SqlDriver, dimensions: number): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error(`invalid embedding dimensions ${dimensions}`)
  const key = `${sql.kind}:${dimensions}`
  let pending = ensured.get(key)
  if (!pending) {
    pending = createIndex(sql, dimensions)
    pending.catch(() => ensured.delete(key))
    ensured.set(key, pending)
  }
  return pending
}

async function indexDefinition(sql: SqlDriver, name: string): Promise<string | null> {
  const rows = await sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Chunk' AND indexname = $1`, [name])
  return rows[0]?.indexdef ?? null
}

async function createIndex(sql: SqlDriver, dimensions: number): Promise<void> {
  if (dimensions > HNSW_MAX_BITS) {
    logger.warn('embeddings have more dimensions than an HNSW index takes: vector search scans them exactly', { dimensions })
    return
  }
  const name = vectorIndexName(dimensions)
  const existing = await indexDefinition(sql, name)
  if (existing?.includes('binary_quantize')) return
  // an index of an earlier kind (full precision) under this name is replaced
  if (existing) await sql.exec(`DROP INDEX IF EXISTS "${name}"`)
  // Postgres: CONCURRENTLY, so that a large table keeps taking writes while the index builds
  const definition = vectorIndexDefinition(dimensions).replace('CREATE INDEX ', sql.kind === 'postgres' ? 'CREATE INDEX CONCURRENTLY IF NOT EXISTS ' : 'CREATE INDEX IF NOT EXISTS ')
  const started = Date.now()
  try {
    await sql.exec(definition)
    logger.info('created a vector index', { index: name, ms: Date.now() - started })
  } catch (error) {
    // another process may have created it at the same moment
    if (!(await indexDefinition(sql, name))) throw error
  }
}
