import type { SqlDriver } from '@/lib/db/sql-driver'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { metrics } from '@/lib/metrics/registry'
import { byScore, type RankedChunk, type TextStatistics } from './bm25-scoring'
import { chunkScore, postingsOf, rankPostings, type ChunkRow, type DatastorePostings } from './bm25-postings'
import { contentHidden, type Scope } from './scope'
import { MAX_SCANNED_FLOATS, nearestVectors, queryVector, cosineSimilarity, vectorsOf, type DatastoreVectors, type VectorRow } from './vector-memory'

// A datastore's BM25 postings kept in memory (issue 28). On the embedded database, BM25's rounds were a third of
// the database thread's time a question (each candidate's tsvector tested and ts_rank'ed term by term in
// WebAssembly); the same ranking from postings in this process costs a fraction of that. The postings are read once
// per version of the datastore's chunks ("DatastoreTextStats".version, new whenever a statement changes them:
// migration 20261129100000_datastore_text_version) and used only while the question's statistics, read in the same
// statement as every question's, report that version; otherwise the question ranks with statements as before, and
// the postings are read again in the background. So a ranking from memory is the ranking the statements would give
// at that moment, on PostgreSQL (any number of web processes) as on the embedded database: the same scores to the
// bit (the statements' arithmetic is reproduced, single precision where they use it), the same order.

// The chunks kept, all datastores together, is SEARCH_MEMORY_CHUNKS (the least recently used dropped first); a larger
// datastore ranks with statements. A datastore's embeddings are kept with them when small enough to compare them all
// (vector-memory.ts), MAX_KEPT_FLOATS values at most all datastores together (16 MB).
const MAX_KEPT_FLOATS = 4_000_000
/** Postings are read again at most every 5 s a datastore, and at most 5 % of the time (a large one while it changes). */
const REREAD_AFTER_MS = 5_000
const REREAD_SHARE = 20

interface Kept {
  version: string
  /** null: more chunks than SEARCH_MEMORY_CHUNKS at that version. */
  postings: DatastorePostings | null
  /** The embeddings by size (vector-memory.ts vectorsOf). */
  vectors: Map<number, DatastoreVectors | null>
}

const kept = new Map<string, Kept>()
const reads = new Map<string, { startedAt: number; tookMs: number; running: boolean; done?: Promise<void> }>()

/**
 * SQL (a CTE after `ds`, the searched datastores): what the scope hides in them, as lib/search/scope.ts's clause
 * hides it, for a ranking without statements.
 */
export const HIDDEN_CONTENT = `hidden AS (
       SELECT array_agg(d.id) FILTER (WHERE ${contentHidden('d')}) AS datasources,
              array_agg(d.id || ' ' || d."hiddenGeneration") FILTER (WHERE d."hiddenGeneration" IS NOT NULL) AS generations
       FROM "Datasource" d WHERE d."datastoreId" IN (SELECT id FROM ds) AND (${contentHidden('d')} OR d."hiddenGeneration" IS NOT NULL)
     )`

export interface VersionColumns {
  datastores: string[] | null
  versions: string[] | null
  hiddenDatasources: string[] | null
  hiddenGenerations: string[] | null
}

/** The statistics' versions and hidden content, from their row. */
export function versionsOf(row: VersionColumns | undefined): Pick<TextStatistics, 'versions' | 'hidden'> {
  if (!row) return {}
  const versions = new Map((row.datastores ?? []).map((id, i) => [id, row.versions![i]]))
  return { versions, hidden: { datasources: new Set(row.hiddenDatasources ?? []), generations: new Set(row.hiddenGenerations ?? []) } }
}

export interface MemoryRanking {
  ranking: RankedChunk[]
  /** Any chunk's BM25 score for the question, as the statements' bm25ScoreSql gives it (0 for one unknown here). */
  scoreOf: (id: string) => number
}

/**
 * The top `limit` chunks by BM25 from the postings in memory, exactly as rankByBm25 ranks them; null when the scope
 * has filters, or a searched datastore's postings are not those of its current version (they are then read again).
 */
export function memoryRanking(sql: SqlDriver, scope: Scope, stats: TextStatistics, limit: number): MemoryRanking | null {
  const entries = currentEntries(sql, scope, stats)
  if (!entries || entries.some(e => !e.postings)) return null
  const found = entries.map(e => e.postings!)
  const hidden = stats.hidden!
  return {
    ranking: found.flatMap(p => rankPostings(p, stats, hidden, limit)).sort(byScore).slice(0, limit),
    scoreOf: id => {
      const p = found.find(f => f.positions.has(id))
      return p ? chunkScore(p, p.positions.get(id)!, stats) : 0
    },
  }
}

export interface MemoryNearest {
  ranking: RankedChunk[]
  /** Any chunk's cosine similarity to the question (null: no embedding of its size), as the statements give it. */
  cosineOf: (id: string) => number | null
}

/**
 * The `limit` chunks nearest to `embedding` from the embeddings in memory (vector-memory.ts), as the vector ranking's
 * statement would find them with an exact search; null when the scope has filters, or a searched datastore's kept
 * chunks are not those of its current version, or its embeddings of that size are not kept.
 */
export function memoryNearest(sql: SqlDriver, scope: Scope, stats: TextStatistics, embedding: number[], limit: number): MemoryNearest | null {
  const entries = currentEntries(sql, scope, stats)
  const sized = entries?.map(e => e.vectors.get(embedding.length))
  if (!sized || sized.some(v => v === null)) return null
  const found = sized.filter((v): v is DatastoreVectors => v !== undefined)
  const query = queryVector(embedding)
  return {
    ranking: found.flatMap(v => nearestVectors(v, query, stats.hidden!, limit)).sort(byScore).slice(0, limit),
    cosineOf: id => {
      const v = found.find(f => f.positions.has(id))
      const score = v ? cosineSimilarity(v, v.positions.get(id)!, query) : NaN
      return Number.isNaN(score) ? null : score
    },
  }
}

/**
 * What this process keeps of each searched datastore, when it is kept at the version the question's statistics
 * report (the most recently used last); else null, and the stale ones are read again in the background.
 */
function currentEntries(sql: SqlDriver, scope: Scope, stats: TextStatistics): Kept[] | null {
  if (!scope.unfiltered || !stats.versions || !stats.hidden || config().SEARCH_MEMORY_CHUNKS === 0) return null
  const entries: Kept[] = []
  for (const [datastoreId, version] of stats.versions) {
    const entry = kept.get(datastoreId)
    if (entry?.version !== version) readPostingsLater(sql, scope.unfiltered.organizationId, datastoreId)
    else {
      kept.delete(datastoreId)
      kept.set(datastoreId, entry)
      entries.push(entry)
    }
  }
  return entries.length === stats.versions.size ? entries : null
}

function readPostingsLater(sql: SqlDriver, organizationId: string, datastoreId: string): void {
  const last = reads.get(datastoreId)
  const now = Date.now()
  if (last && (last.running || now - last.startedAt < Math.max(REREAD_AFTER_MS, REREAD_SHARE * last.tookMs))) return
  const read: { startedAt: number; tookMs: number; running: boolean; done?: Promise<void> } = { startedAt: now, tookMs: 0, running: true }
  reads.set(datastoreId, read)
  read.done = readPostings(sql, organizationId, datastoreId)
    .catch(error => logger.warn('BM25 postings not read: ranking with statements', { datastoreId, error: error instanceof Error ? error.message : String(error) }))
    .finally(() => void Object.assign(read, { running: false, tookMs: Date.now() - now }))
}

/**
 * Reads a datastore's postings and embeddings at its current version (one statement: one snapshot) and keeps them.
 * An embedding is read (pgvector's binary form) only while the datastore holds at most MAX_SCANNED_FLOATS values of
 * its size.
 */
export async function readPostings(sql: Pick<SqlDriver, 'query'>, organizationId: string, datastoreId: string): Promise<void> {
  const rows = await sql.query<{ version: string; id: string | null } & Omit<ChunkRow, 'id'> & Omit<VectorRow, 'id'>>(
    `SELECT s.version::text AS version, c.id, c."datasourceId", c.generation, c."tsvLength" AS length, c.tsv::text AS tsv,
            vector_dims(c."embedding") AS dimensions,
            CASE WHEN s.chunks::bigint * vector_dims(c."embedding") <= $4 THEN vector_send(c."embedding") END AS vector
       FROM "DatastoreTextStats" s LEFT JOIN "Chunk" c ON c."datastoreId" = s."datastoreId" AND c."organizationId" = $2 AND s.chunks <= $3
      WHERE s."datastoreId" = $1`,
    [datastoreId, organizationId, config().SEARCH_MEMORY_CHUNKS, MAX_SCANNED_FLOATS],
  )
  if (rows.length === 0) return void kept.delete(datastoreId)
  const chunks = rows[0].id === null ? null : (rows as (ChunkRow & VectorRow)[])
  keep(datastoreId, { version: rows[0].version, postings: chunks && (await postingsOf(chunks)), vectors: chunks ? vectorsOf(chunks) : new Map() })
}

const sizeOf = (entry: Kept) => ({
  chunks: entry.postings?.ids.length ?? 0,
  floats: [...entry.vectors.values()].reduce((sum, v) => sum + (v?.values.length ?? 0), 0),
})

/** Keeps a datastore's entry, dropping the least recently used others while over either budget. */
function keep(datastoreId: string, entry: Kept): void {
  kept.delete(datastoreId)
  const total = sizeOf(entry)
  for (const other of kept.values()) {
    const size = sizeOf(other)
    total.chunks += size.chunks
    total.floats += size.floats
  }
  const over = () => total.chunks > config().SEARCH_MEMORY_CHUNKS || total.floats > MAX_KEPT_FLOATS
  for (const [id, other] of kept) {
    if (!over()) break
    kept.delete(id)
    const size = sizeOf(other)
    total.chunks -= size.chunks
    total.floats -= size.floats
  }
  if (!over()) kept.set(datastoreId, entry)
  reportKept()
}

/** What is kept, as the metrics' gauges (GET /api/metrics: search_memory_kept). */
function reportKept(): void {
  const sizes = [...kept.values()].map(sizeOf)
  metrics().searchMemoryKept.set({ kind: 'chunks' }, sizes.reduce((sum, s) => sum + s.chunks, 0))
  metrics().searchMemoryKept.set({ kind: 'embedding_values' }, sizes.reduce((sum, s) => sum + s.floats, 0))
}

/** Once the background reads started so far have ended (tests: a read that ends after a change keeps its version). */
export async function readsSettled(): Promise<void> {
  await Promise.all([...reads.values()].map(r => r.done))
}

/** Forgets every datastore's postings (tests). */
export function forgetPostings(): void {
  kept.clear()
  reads.clear()
  reportKept()
}
