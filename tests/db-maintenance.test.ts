// What autovacuum does on PostgreSQL and the embedded database's own process does in its stead (lib/db/auto-analyze.ts):
// - new entries of the full-text GIN index wait in its pending list (up to 4 MB), which every search reads whole until
//   it is merged into the index's tree. Seen from a search: the pages its index scan reads;
// - the planner's statistics: ANALYZE once the table holds a few hundred chunks, even when CREATE INDEX already set
//   its row count (reltuples) without any column statistics.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { getDatabase, openPglite } from '@/lib/db/client'
import { AFTER_WRITES_MS, maintainAfterChunkWrites, mergeGinPendingLists, startAutoAnalyze, vacuumIfNeeded } from '@/lib/db/auto-analyze'
import { ensureVectorIndex } from '@/lib/db/vector-index'
import type { SqlDriver } from '@/lib/db/sql-driver'

const CHUNKS = 600

/** Chunks of varied words in a new datastore (the GIN index of "Chunk" takes them into its pending list). */
async function writeChunks(sql: SqlDriver, prefix: string): Promise<void> {
  await sql.exec(`INSERT INTO "Organization" (id, name, "updatedAt") VALUES ('${prefix}o', 'o', now());
    INSERT INTO "Datastore" (id, "organizationId", name, "updatedAt") VALUES ('${prefix}s', '${prefix}o', 's', now());
    INSERT INTO "Datasource" (id, "organizationId", "datastoreId", type, name, "updatedAt") VALUES ('${prefix}d', '${prefix}o', '${prefix}s', 'text', 'd', now());
    INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens)
      SELECT '${prefix}c' || g, '${prefix}o', '${prefix}s', '${prefix}d', g,
             (SELECT string_agg('word' || ((g * 7919 + k * 104729) % 5000), ' ') FROM generate_series(1, 120) k) || ' zebra' || g, 120
      FROM generate_series(1, ${CHUNKS}) g;`)
}

/** Pages the GIN index scan of one full-text search touches. */
async function indexPages(sql: SqlDriver, prefix: string): Promise<number> {
  const [row] = await sql.transaction(async tx => {
    await tx.exec('SET LOCAL enable_seqscan = off')
    return tx.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT id FROM "Chunk" WHERE tsv @@ to_tsquery('simple', 'zebra7') AND "datastoreId" || '' = '${prefix}s'`,
    )
  })
  const plans = row['QUERY PLAN'] as { Plan: PlanNode }[]
  const scan = findNode(plans[0].Plan, 'Bitmap Index Scan')
  expect(scan, 'the search uses the GIN index').toBeDefined()
  return (scan!['Shared Hit Blocks'] ?? 0) + (scan!['Shared Read Blocks'] ?? 0)
}

type PlanNode = { 'Node Type': string; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: PlanNode[] }
const findNode = (node: PlanNode, type: string): PlanNode | undefined =>
  node['Node Type'] === type ? node : node.Plans?.map(child => findNode(child, type)).find(Boolean)

describe("the embedded database's maintenance", () => {
  test('merged, a search reads a few index pages instead of the whole list', async () => {
    const { sql } = await getDatabase()
    await writeChunks(sql, 'p')
    const before = await indexPages(sql, 'p')
    expect(before).toBeGreaterThan(20) // 400 chunks of 120 words wait in the pending list
    expect(await mergeGinPendingLists(sql)).toBeGreaterThan(0)
    const after = await indexPages(sql, 'p')
    expect(after).toBeLessThan(10)
    expect(await mergeGinPendingLists(sql)).toBe(0) // nothing left: the next check costs a metapage read
    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Chunk" WHERE tsv @@ to_tsquery('simple', 'zebra7') AND "datastoreId" = 'ps'`)
    expect(n).toBe(1) // the merged entries still find their chunk
  })

  // PostgreSQL's own autovacuum may get there first
  test.skipIf(process.env.TEST_DATABASE === 'postgres')('dead rows beyond the threshold are vacuumed, once', async () => {
    const { sql } = await getDatabase()
    await writeChunks(sql, 'v')
    await writeChunks(sql, 'w')
    // a re-sync replaces a datasource's chunks: the old ones are dead rows until a vacuum (here more than 500 + 20 %
    // of the chunks left, whatever the other tests of this file wrote)
    await sql.exec(`DELETE FROM "Chunk" WHERE "datastoreId" IN ('vs', 'ws')`)
    const dead = async () => {
      // the activity statistics reach the shared counts at most once a second otherwise
      await sql.query('SELECT pg_stat_force_next_flush()')
      await sql.query('SELECT 1')
      const [row] = await sql.query<{ dead: number }>(`SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'Chunk' AND schemaname = current_schema()`)
      return row.dead
    }
    expect(await dead()).toBeGreaterThanOrEqual(2 * CHUNKS)
    expect(await vacuumIfNeeded(sql)).toContain('Chunk')
    expect(await dead()).toBe(0)
    expect(await vacuumIfNeeded(sql)).not.toContain('Chunk')
  })

  test('the embedded database merges it and analyses the chunks itself, without any step from outside', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-gin-'))
    const db = await openPglite(dir)
    try {
      await writeChunks(db.sql, 'e')
      // a vector index built over the chunks already there sets the table's row count, with no column statistics
      await ensureVectorIndex(db.sql, 64)
      const [{ reltuples }] = await db.sql.query<{ reltuples: number }>(`SELECT reltuples::int AS reltuples FROM pg_class WHERE oid = '"Chunk"'::regclass`)
      expect(reltuples).toBe(CHUNKS)
      expect(await indexPages(db.sql, 'e')).toBeGreaterThan(20)
      const analysed = async () =>
        (await db.sql.query(`SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'Chunk' AND attname = 'datastoreId'`)).length > 0
      // its maintenance runs 2 s after opening and every 15 s: wait for the state, generously
      const deadline = Date.now() + 90_000
      while (((await indexPages(db.sql, 'e')) >= 10 || !(await analysed())) && Date.now() < deadline) await new Promise(r => setTimeout(r, 500))
      expect(await indexPages(db.sql, 'e')).toBeLessThan(10)
      expect(await analysed()).toBe(true)
    } finally {
      await db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the embedded database looks again soon after chunks are written', () => {
  test('one check AFTER_WRITES_MS after the last write, not at the next period', async () => {
    vi.useFakeTimers()
    const statements: string[] = []
    const sql = { query: async (text: string) => (statements.push(text), []), transaction: async () => [], exec: async () => [] } as unknown as SqlDriver
    const maintenance = startAutoAnalyze(sql, 60_000)
    try {
      await vi.advanceTimersByTimeAsync(2_000) // the check after opening
      const checks = () => statements.filter(s => s.includes('n_dead_tup')).length
      expect(checks()).toBe(1)
      // a synchronisation writing batch after batch: checked once it pauses
      for (let i = 0; i < 5; i++) {
        maintenance.chunksChanged()
        await vi.advanceTimersByTimeAsync(AFTER_WRITES_MS / 2)
      }
      expect(checks()).toBe(1)
      await vi.advanceTimersByTimeAsync(AFTER_WRITES_MS / 2)
      expect(checks()).toBe(2)
      // and the table's statistics are what it checked
      expect(statements.filter(s => s.includes('pg_stats')).length).toBe(2)
    } finally {
      await maintenance.stop()
      vi.useRealTimers()
    }
  })
})

describe('PostgreSQL: soon after a sync, the chunks analysed and the full-text pending list merged; vacuum left to autovacuum', () => {
  test('no check on its own; one AFTER_WRITES_MS after the last write: the statistics and the pending lists', async () => {
    vi.useFakeTimers()
    const statements: string[] = []
    const sql = { query: async (text: string) => (statements.push(text), []), transaction: async () => [], exec: async () => [] } as unknown as SqlDriver
    const statistics = maintainAfterChunkWrites(sql)
    try {
      await vi.advanceTimersByTimeAsync(120_000)
      expect(statements).toEqual([])
      for (let i = 0; i < 3; i++) {
        statistics.chunksChanged()
        await vi.advanceTimersByTimeAsync(AFTER_WRITES_MS / 2)
      }
      expect(statements).toEqual([])
      await vi.advanceTimersByTimeAsync(AFTER_WRITES_MS / 2)
      expect(statements).toHaveLength(2)
      expect(statements[0]).toContain('pg_stats')
      expect(statements[1]).toContain('gin_clean_pending_list')
      expect(statements.join()).not.toContain('n_dead_tup')
    } finally {
      await statistics.stop()
      vi.useRealTimers()
    }
  })
})
