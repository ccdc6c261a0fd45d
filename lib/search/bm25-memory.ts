import type { SqlDriver } from '@/lib/db/sql-driver'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { byScore, type RankedChunk, type TextStatistics } from './bm25-scoring'
import { chunkScore, postingsOf, rankPostings, type ChunkRow, type DatastorePostings } from './bm25-postings'
import { contentHidden, type Scope } from './scope'

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
// datastore ranks with statements.
/** Postings are read again at most every 5 s a datastore, and at most 5 % of the time (a large one while it changes). */
const REREAD_AFTER_MS = 5_000
const REREAD_SHARE = 20

interface Kept {
  version: string
  /** null: more chunks than SEARCH_MEMORY_CHUNKS at that version. */
  postings: DatastorePostings | null
}

const kept = new Map<string, Kept>()
const reads = new Map<string, { startedAt: number; tookMs: number; running: boolean }>()

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
  if (!scope.unfiltered || !stats.versions || !stats.hidden || config().SEARCH_MEMORY_CHUNKS === 0) return null
  const found: DatastorePostings[] = []
  let current = true
  for (const [datastoreId, version] of stats.versions) {
    const entry = kept.get(datastoreId)
    if (entry?.version !== version) {
      current = false
      readPostingsLater(sql, scope.unfiltered.organizationId, datastoreId)
    } else if (!entry.postings) return null
    else {
      kept.delete(datastoreId) // the most recently used last
      kept.set(datastoreId, entry)
      found.push(entry.postings)
    }
  }
  if (!current) return null
  const hidden = stats.hidden
  return {
    ranking: found.flatMap(p => rankPostings(p, stats, hidden, limit)).sort(byScore).slice(0, limit),
    scoreOf: id => {
      const p = found.find(f => f.positions.has(id))
      return p ? chunkScore(p, p.positions.get(id)!, stats) : 0
    },
  }
}

function readPostingsLater(sql: SqlDriver, organizationId: string, datastoreId: string): void {
  const last = reads.get(datastoreId)
  const now = Date.now()
  if (last && (last.running || now - last.startedAt < Math.max(REREAD_AFTER_MS, REREAD_SHARE * last.tookMs))) return
  const read = { startedAt: now, tookMs: 0, running: true }
  reads.set(datastoreId, read)
  readPostings(sql, organizationId, datastoreId)
    .catch(error => logger.warn('BM25 postings not read: ranking with statements', { datastoreId, error: error instanceof Error ? error.message : String(error) }))
    .finally(() => Object.assign(read, { running: false, tookMs: Date.now() - now }))
}

/** Reads a datastore's postings at its current version (one statement: one snapshot) and keeps them. */
export async function readPostings(sql: Pick<SqlDriver, 'query'>, organizationId: string, datastoreId: string): Promise<void> {
  const rows = await sql.query<{ version: string; id: string | null } & Omit<ChunkRow, 'id'>>(
    `SELECT s.version::text AS version, c.id, c."datasourceId", c.generation, c."tsvLength" AS length, c.tsv::text AS tsv
       FROM "DatastoreTextStats" s LEFT JOIN "Chunk" c ON c."datastoreId" = s."datastoreId" AND c."organizationId" = $2 AND s.chunks <= $3
      WHERE s."datastoreId" = $1`,
    [datastoreId, organizationId, config().SEARCH_MEMORY_CHUNKS],
  )
  if (rows.length === 0) return void kept.delete(datastoreId)
  const postings = rows[0].id === null ? null : await postingsOf(rows as ChunkRow[])
  keep(datastoreId, { version: rows[0].version, postings })
}

function keep(datastoreId: string, entry: Kept): void {
  kept.delete(datastoreId)
  const most = config().SEARCH_MEMORY_CHUNKS
  let total = entry.postings?.ids.length ?? 0
  for (const other of kept.values()) total += other.postings?.ids.length ?? 0
  for (const [id, other] of kept) {
    if (total <= most) break
    kept.delete(id)
    total -= other.postings?.ids.length ?? 0
  }
  if (total <= most) kept.set(datastoreId, entry)
}

/** Forgets every datastore's postings (tests). */
export function forgetPostings(): void {
  kept.clear()
  reads.clear()
}
