import { logger } from '@/lib/logger'
import type { SqlDriver } from './sql-driver'

// PostgreSQL's autovacuum analyses a table once more than 50 rows + 10 % of it changed since its last ANALYZE; the
// embedded database has no autovacuum, so its planner would never learn the size of "Chunk" (pg_class.reltuples -1)
// and, for example, sort every chunk of a datastore by vector distance instead of walking the HNSW index (200 ms at
// 10,000 chunks, seconds at 100,000: docs/benchmarks-history.md). The same rule, on the chunk count the BM25 statistics keep
// exactly ("DatastoreTextStats"), run by the embedded database's own process.
const THRESHOLD_ROWS = 500
const SCALE_FACTOR = 0.1
export const CHECK_EVERY_MS = 15_000
// What the ranking statements' plans depend on: the tables' sizes and the columns they filter on. Not the tsvector
// nor the embedding (the full-text ranking is driven by the GIN index whatever the statistics), whose statistics
// cost most of a full ANALYZE (13 s at 100,000 chunks of 1536 dimensions under load, one thread: every query waits).
// A small sample: one datastore's share of the chunks is all the plans need to know.
const ANALYZE = `SET LOCAL default_statistics_target = 20;
  ANALYZE "Chunk" ("organizationId", "datastoreId", "datasourceId"); ANALYZE "Datasource"`

/**
 * Whether "Chunk" has changed enough since its last ANALYZE (or was never analysed and is worth it). `analysed`: the
 * planner has column statistics for it. reltuples alone cannot tell: CREATE INDEX sets it too (the vector index of a
 * new embeddings size is built over the chunks already there), and with a row count but no column statistics the
 * planner guesses a datastore at 0.5 % of the table and sorts all its chunks by vector distance (bench:agent: 66–94 ms
 * instead of ~10 at 10,000 chunks).
 */
export function needsAnalyze(chunks: number, reltuples: number, analysed = reltuples >= 0): boolean {
  if (!analysed || reltuples < 0) return chunks >= THRESHOLD_ROWS
  return Math.abs(chunks - reltuples) > THRESHOLD_ROWS + SCALE_FACTOR * reltuples
}

/** Analyses the tables when "Chunk" grew or shrank enough since the last time; true when it ran. */
export async function analyzeIfNeeded(sql: SqlDriver): Promise<boolean> {
  const [row] = await sql.query<{ chunks: string; reltuples: number; analysed: boolean }>(
    `SELECT (SELECT COALESCE(sum(chunks), 0) FROM "DatastoreTextStats")::text AS chunks,
            (SELECT reltuples FROM pg_class WHERE oid = '"Chunk"'::regclass)::float8 AS reltuples,
            EXISTS (SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'Chunk' AND attname = 'datastoreId') AS analysed`,
  )
  if (!row || !needsAnalyze(Number(row.chunks), Number(row.reltuples), row.analysed)) return false
  const started = Date.now()
  await sql.transaction(tx => tx.exec(ANALYZE))
  logger.info('table statistics refreshed', { database: sql.kind, chunks: Number(row.chunks), ms: Date.now() - started })
  return true
}

/**
 * Merges the pending lists of the schema's GIN indexes into their trees, as autovacuum does on PostgreSQL: new
 * entries of a GIN index (fastupdate) are appended to a pending list of up to 4 MB that every search reads whole
 * (~500 pages once full: 1,900 chunks of real text) and that, without autovacuum, only the next insert to fill it
 * merges. After a sync the embedded database kept up to 4 MB pending for good. Returns the pages merged.
 */
export async function mergeGinPendingLists(sql: SqlDriver): Promise<number> {
  const [row] = await sql.query<{ pages: string }>(
    `SELECT COALESCE(sum(gin_clean_pending_list(c.oid::regclass)), 0)::text AS pages FROM pg_class c
     JOIN pg_am a ON a.oid = c.relam AND a.amname = 'gin' WHERE c.relnamespace = current_schema()::regnamespace`,
  )
  return Number(row?.pages ?? 0)
}

// autovacuum's rule (vacuum once more than 50 rows + 20 % of a table are dead), with the larger floor of ANALYZE's
const VACUUM_SCALE_FACTOR = 0.2

/**
 * Vacuums the tables of the schema where enough rows died since the last time (PostgreSQL's activity statistics count
 * them): every re-sync replaces a datasource's chunks, and without autovacuum their old versions stayed in the table,
 * its TOAST and its indexes for good, on disk and in every search's index scans. One statement at a time on the one
 * connection (everything else waits for it): 10,000 dead chunks of 1536 dimensions took 0.4 s (docs/benchmarks.md).
 * Returns the tables vacuumed.
 */
export async function vacuumIfNeeded(sql: SqlDriver): Promise<string[]> {
  const due = await sql.query<{ table: string; dead: number }>(
    `SELECT relname AS table, n_dead_tup::int AS dead FROM pg_stat_user_tables
     WHERE schemaname = current_schema() AND n_dead_tup > ${THRESHOLD_ROWS} + ${VACUUM_SCALE_FACTOR} * n_live_tup ORDER BY relname`,
  )
  for (const { table, dead } of due) {
    const started = Date.now()
    await sql.exec(`VACUUM "${table.replace(/"/g, '""')}"`)
    logger.info('embedded database: dead rows vacuumed', { table, dead, ms: Date.now() - started })
  }
  return due.map(d => d.table)
}

/** What the embedded database's process does in autovacuum's stead: VACUUM and ANALYZE when due, the GIN lists merged. */
async function maintain(sql: SqlDriver): Promise<void> {
  await vacuumIfNeeded(sql)
  await analyzeIfNeeded(sql)
  await mergePendingAndLog(sql)
}

async function mergePendingAndLog(sql: SqlDriver): Promise<void> {
  const started = Date.now()
  const pages = await mergeGinPendingLists(sql)
  if (pages > 0) logger.info('full-text index pending entries merged', { database: sql.kind, pages, ms: Date.now() - started })
}

/**
 * How long after the last write of chunks the maintenance looks again (a new datastore's chunks are otherwise ranked
 * without statistics until the next period: the vector ranking sorted all of them, 3–4 ms instead of ~1 at 1,000
 * chunks, seconds at 100,000). Each write pushes it back, so a long synchronisation is analysed once it pauses.
 */
export const AFTER_WRITES_MS = 2_000

export interface AutoAnalyze {
  /** Chunks were written: check again AFTER_WRITES_MS after the last such call. */
  chunksChanged(): void
  /** Stops the checks, waiting for the one running (before the database closes). */
  stop(): Promise<void>
}

/** Checks now and then, as autovacuum would, and soon after chunks are written; one check at a time. */
export function startAutoAnalyze(sql: SqlDriver, everyMs = CHECK_EVERY_MS): AutoAnalyze {
  return startChecks(() => maintain(sql), 'embedded database: maintenance failed', everyMs)
}

/**
 * On PostgreSQL, whose autovacuum gets to a table a minute or more after it changed (autovacuum_naptime, one database
 * at a time): soon after chunks are written, their statistics (when due) and the full-text index's pending entries
 * merged, so that a new datastore's first questions are planned with its statistics and search its index, not a list.
 * On bench:load's database, before: the vector ranking sorted every chunk of the datastore (3.5 instead of 0.65 ms at 1,000
 * chunks), and each BM25 round read the GIN index's pending list, 296 pages holding every chunk (~5 ms a round).
 * Vacuum stays autovacuum's.
 */
export function maintainAfterChunkWrites(sql: SqlDriver): AutoAnalyze {
  const work = async () => {
    await analyzeIfNeeded(sql)
    await mergePendingAndLog(sql)
  }
  return startChecks(work, 'database maintenance after a sync failed', null)
}

/** `work` every `everyMs` (null: never on its own) and AFTER_WRITES_MS after the last chunksChanged(); one at a time. */
function startChecks(work: () => Promise<unknown>, failure: string, everyMs: number | null): AutoAnalyze {
  let running: Promise<unknown> | null = null
  let stopped = false
  let settle: NodeJS.Timeout | undefined
  const check = () => {
    if (stopped || running) return
    running = work()
      .catch(error => logger.warn(failure, { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => (running = null))
  }
  const first = everyMs === null ? undefined : setTimeout(check, Math.min(everyMs, 2_000))
  const timer = everyMs === null ? undefined : setInterval(check, everyMs)
  first?.unref()
  timer?.unref()
  return {
    chunksChanged() {
      if (stopped) return
      clearTimeout(settle)
      settle = setTimeout(check, AFTER_WRITES_MS)
      settle.unref()
    },
    async stop() {
      stopped = true
      clearTimeout(first)
      clearTimeout(settle)
      clearInterval(timer)
      await running
    },
  }
}
