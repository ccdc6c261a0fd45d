import pg from 'pg'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { getDatabase, getPrisma, openPostgres, splitSchema } from '@/lib/db/client'
import { preparedStatements } from '@/lib/db/postgres-prepared'
import { postgresDriver, type SqlDriver } from '@/lib/db/sql-driver'
import { createTenant } from './helpers/tenants'

// What PostgreSQL plans a question with (issue 28): statements that come again prepared on their connection, and the
// chunks' statistics soon after a sync. Postgres project only (vitest.config.mts).
describe.skipIf(!process.env.TEST_SCHEMA_URL)('statements that come again run prepared on PostgreSQL', () => {
  let pool: pg.Pool
  afterEach(async () => { await pool?.end() })

  /** A driver on one connection (so that what it prepared is visible to the next statement), preparing or not. */
  function driver(enabled = true): SqlDriver {
    const { connectionString, schema } = splitSchema(process.env.TEST_SCHEMA_URL!)
    pool = new pg.Pool({ connectionString, max: 1, options: `-c search_path="${schema}",public` })
    return postgresDriver(pool, preparedStatements(enabled))
  }
  const preparedTexts = async (sql: SqlDriver) =>
    (await sql.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).map(r => r.statement)

  test('a text seen a second time is prepared on its connection, and gives the same rows', async () => {
    const sql = driver()
    const text = 'SELECT $1::int + 1 AS n'
    expect(await sql.query(text, [1])).toEqual([{ n: 2 }])
    expect(await preparedTexts(sql)).not.toContain(text)
    expect(await sql.query(text, [2])).toEqual([{ n: 3 }])
    expect(await preparedTexts(sql)).toContain(text)
    expect(await sql.query(text, [3])).toEqual([{ n: 4 }])
    // inside a transaction too (BM25's rounds and the vector ranking run with settings)
    expect(await sql.queryWithSettings('SET LOCAL enable_seqscan = off', text, [4])).toEqual([{ n: 5 }])
  })

  test('a statement under settings is one exchange: the settings seen by it only, no transaction left open', async () => {
    const sql = driver()
    let exchanges = 0
    pool.on('connect', client => (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', () => exchanges++))
    await sql.query('SELECT 1')
    const text = `SELECT current_setting('enable_seqscan') AS seq, current_setting('work_mem') AS mem, $1::int AS n`
    for (let n = 0; n < 3; n++) {
      exchanges = 0
      // first sighting, prepared on the second, run prepared on the third
      expect(await sql.queryWithSettings(`SET LOCAL enable_seqscan = off; SET LOCAL work_mem = '1MB';`, text, [n])).toEqual([{ seq: 'off', mem: '1MB', n }])
      expect(exchanges).toBe(1)
    }
    expect(await sql.query(`SELECT current_setting('enable_seqscan') AS seq, now() = statement_timestamp() AS alone`)).toEqual([{ seq: 'on', alone: true }])
  })

  test('a statement under settings that fails: its error, and the connection is usable after', async () => {
    const sql = driver()
    const divide = 'SELECT 1 / $1::int AS n'
    for (let i = 0; i < 2; i++) expect(await sql.queryWithSettings('SET LOCAL enable_seqscan = off', divide, [1])).toEqual([{ n: 1 }])
    await expect(sql.queryWithSettings('SET LOCAL enable_seqscan = off', divide, [0])).rejects.toMatchObject({ code: '22012' })
    await expect(sql.queryWithSettings('SET LOCAL enable_seqscan = off', 'SELEC 1', [])).rejects.toMatchObject({ code: '42601' })
    await expect(sql.queryWithSettings('SET LOCAL no_such_setting_at_all = 1', divide, [1])).rejects.toMatchObject({ code: '42704' })
    expect(await sql.queryWithSettings('SET LOCAL enable_seqscan = off', divide, [2])).toEqual([{ n: 0 }])
    expect(await sql.query(`SELECT current_setting('enable_seqscan') AS seq, now() = statement_timestamp() AS alone`)).toEqual([{ seq: 'on', alone: true }])
  })

  test('DATABASE_PREPARED_STATEMENTS=off: nothing is prepared (for a pooler that cannot keep them)', async () => {
    const sql = driver(false)
    for (let i = 0; i < 3; i++) await sql.query('SELECT $1::int AS n', [i])
    expect(await preparedTexts(sql)).toEqual([])
  })

  test('a connection keeps at most 200, the least recently used deallocated first', async () => {
    const sql = driver()
    const text = (i: number) => `SELECT ${i} + $1::int AS n`
    for (let i = 0; i < 210; i++) for (let k = 0; k < 2; k++) expect(await sql.query(text(i), [k])).toEqual([{ n: i + k }])
    const kept = await preparedTexts(sql)
    expect(kept).toHaveLength(200)
    expect(kept).not.toContain(text(0))
    expect(kept).toContain(text(209))
    // the first one again: prepared anew, right rows
    expect(await sql.query(text(0), [5])).toEqual([{ n: 5 }])
    expect(await preparedTexts(sql)).toContain(text(0))
  })

  test('a statement prepared before its table changed shape is prepared again, alone at once, in a transaction next time', async () => {
    const sql = driver()
    await sql.exec('CREATE TABLE planner_shape (a int); INSERT INTO planner_shape VALUES (1)')
    const text = 'SELECT * FROM planner_shape WHERE a = $1'
    for (let i = 0; i < 2; i++) expect(await sql.query(text, [1])).toEqual([{ a: 1 }])
    await sql.exec('ALTER TABLE planner_shape ADD COLUMN b int')
    expect(await sql.query(text, [1])).toEqual([{ a: 1, b: null }])
    expect(await sql.query(text, [1])).toEqual([{ a: 1, b: null }]) // prepared again, under a new name
    await sql.exec('ALTER TABLE planner_shape ADD COLUMN c int')
    const inTransaction = () => sql.transaction(tx => tx.query(text, [1]))
    await expect(inTransaction()).rejects.toMatchObject({ code: '0A000' })
    expect(await inTransaction()).toEqual([{ a: 1, b: null, c: null }])
    await sql.exec('DROP TABLE planner_shape')
  })
})

describe.skipIf(!process.env.TEST_SCHEMA_URL)('soon after a sync on PostgreSQL, the chunks are analysed and their full-text pending list merged', () => {
  afterAll(async () => { await (await getDatabase()).sql.exec('ALTER TABLE "Chunk" RESET (autovacuum_enabled)') })

  test('600 chunks written and the worker says so: statistics and index ready within seconds, not at autovacuum', async () => {
    const { sql } = await getDatabase()
    // autovacuum kept out, so that only the process's own check can analyse the table or merge its index's list
    await sql.exec('ALTER TABLE "Chunk" SET (autovacuum_enabled = false)')
    const { ctx } = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: ctx.organizationId, name: 'Many' } })
    const source = await prisma.datasource.create({ data: { organizationId: ctx.organizationId, datastoreId: store.id, type: 'text', name: 'many', status: 'synched' } })
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens)
       SELECT 'planner_' || i, $1, $2, $3, i, 'chunk number ' || i, 3 FROM generate_series(1, 600) i`,
      [ctx.organizationId, store.id, source.id],
    )
    const analysed = async () =>
      (await sql.query(`SELECT 1 FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'Chunk' AND attname = 'datastoreId'`)).length > 0
    expect(await analysed()).toBe(false)
    const other = await openPostgres(process.env.TEST_SCHEMA_URL!)
    try {
      other.chunksChanged!()
      const deadline = Date.now() + 20_000
      while (!(await analysed()) && Date.now() < deadline) await new Promise(r => setTimeout(r, 250))
    } finally {
      await other.close() // waits for its check to end
    }
    expect(await analysed()).toBe(true)
    // nothing left in the pending list for this call to merge (every search read it whole before)
    const [merged] = await sql.query<{ pages: number }>(`SELECT gin_clean_pending_list('"Chunk_tsv_idx"'::regclass)::int AS pages`)
    expect(merged.pages).toBe(0)
  })
})
