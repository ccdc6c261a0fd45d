import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getDatabase, openPostgres, useDatabase, type Database } from '@/lib/db/client'
import { getBlobStore } from '@/lib/db/blob-store'
import { ensureVectorIndex, vectorIndexName } from '@/lib/db/vector-index'
import { expireLeasesOfDeadWorkers } from '@/lib/ingest/lifecycle'
import { reserveAgentQuery } from '@/lib/usage/agent-queries'
import { createTenant } from './helpers/tenants'

// What only PostgreSQL does: several processes on one database. A second pool on this file's schema stands for a
// second process (its own connections, its own sessions); tests/multiprocess-scaleout.test.ts runs real processes.
// Postgres project only (vitest.config.mts).
describe.skipIf(!process.env.TEST_SCHEMA_URL)('PostgreSQL shared by several processes', () => {
  let first: Promise<Database>
  let second: Promise<Database>
  beforeAll(async () => {
    first = getDatabase()
    second = openPostgres(process.env.TEST_SCHEMA_URL!)
    await second
  })
  afterAll(async () => {
    useDatabase(first)
    await (await second).close()
  })

  /** Runs `fn` with `database` as this process's database for the call's first step (getDatabase() is read at once). */
  function on<T>(database: Promise<Database>, fn: () => Promise<T>): Promise<T> {
    useDatabase(database)
    try {
      return fn()
    } finally {
      useDatabase(first)
    }
  }

  test('usage limits are exact when two processes count at once: 40 queries against a limit of 25 let exactly 25 through', async () => {
    const { ctx } = await createTenant()
    const prisma = (await first).prisma
    await prisma.usageLimit.create({ data: { organizationId: ctx.organizationId, maxAgentQueries: 25 } })
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => on(i % 2 ? second : first, () => reserveAgentQuery(ctx.organizationId))))
    expect(results.filter(r => r.status === 'fulfilled')).toHaveLength(25)
    expect(results.filter(r => r.status === 'rejected').map(r => (r as PromiseRejectedResult).reason.status)).toEqual(Array(15).fill(402))
    const usage = await prisma.usage.findFirstOrThrow({ where: { organizationId: ctx.organizationId } })
    expect(usage.agentQueries).toBe(25)
  })

  test("two processes writing a datastore's new words at once both count them: its statistics are written one transaction at a time", async () => {
    const { ctx } = await createTenant()
    const prisma = (await first).prisma
    const store = await prisma.datastore.create({ data: { organizationId: ctx.organizationId, name: 'two writers' } })
    const [a, b] = await Promise.all(['a', 'b'].map(name => prisma.datasource.create({ data: { organizationId: ctx.organizationId, datastoreId: store.id, type: 'text', name } })))
    const insert = (tx: { query: Database['sql']['query'] }, datasourceId: string) =>
      tx.query(`INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens) VALUES ($1, $2, $3, $4, 0, 'Zanzibar cloves', 4)`, [
        `chunk-${datasourceId}`, ctx.organizationId, store.id, datasourceId,
      ])
    let inserted!: () => void
    let release!: () => void
    const firstInserted = new Promise<void>(resolve => (inserted = resolve))
    const released = new Promise<void>(resolve => (release = resolve))
    // the first process's transaction has counted "zanzibar" (a new lexeme of the datastore) and is still open
    const one = (await first).sql.transaction(async tx => (await insert(tx, a.id), inserted(), await released))
    await firstInserted
    const two = (await second).sql.transaction(tx => insert(tx, b.id))
    // the second waits for the first at the datastore's "DatastoreTextStats" row, which the trigger writes before the
    // lexemes: had it not waited, its MERGE would insert "zanzibar" too, and fail on the key once the first commits
    const { sql } = await first
    const waiting = `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()`
    while ((await sql.query(waiting)).length === 0) await new Promise(resolve => setTimeout(resolve, 20))
    release()
    await Promise.all([one, two])
    const terms = await sql.query<{ lexeme: string; df: number }>(`SELECT lexeme, df FROM "DatastoreTerm" WHERE "datastoreId" = $1 ORDER BY 1`, [store.id])
    expect(terms).toEqual([{ lexeme: 'clove', df: 2 }, { lexeme: 'zanzibar', df: 2 }])
  })

  test('an original stored by one process is read by another (the Blob table, no file)', async () => {
    const bytes = new TextEncoder().encode('stored by the first process')
    await on(first, async () => (await getBlobStore()).put('datasources/shared/original', bytes, 'text/plain'))
    const read = await on(second, async () => (await getBlobStore()).get('datasources/shared/original'))
    expect(read).toEqual({ data: bytes, contentType: 'text/plain' })
  })

  test('the vector index of a new embedding size is built while another process queries', async () => {
    const { sql } = await first
    const vector = (seed: number) => `[${Array.from({ length: 768 }, (_, i) => Math.sin(seed + i)).join(',')}]`
    let querying = true
    let queries = 0
    const reader = (async () => {
      while (querying) {
        await (await second).sql.query(`SELECT count(*) FROM "Chunk" WHERE vector_dims("embedding") = 768 ORDER BY 1 LIMIT 1`)
        await (await second).sql.query(`SELECT $1::vector(768) <=> $2::vector(768) AS d`, [vector(1), vector(2)])
        queries++
      }
    })()
    await ensureVectorIndex(sql, 768)
    querying = false
    await reader
    expect(queries).toBeGreaterThan(0)
    const [index] = await sql.query<{ valid: boolean }>(
      `SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(quote_ident($1))`,
      [vectorIndexName(768)],
    )
    expect(index).toEqual({ valid: true })
  })

  test('expireLeasesOfDeadWorkers leaves every lease alone on Postgres: other live workers hold them', async () => {
    const { ctx } = await createTenant()
    const prisma = (await first).prisma
    const store = await prisma.datastore.create({ data: { organizationId: ctx.organizationId, name: 'leases' } })
    const until = new Date(Date.now() + 60_000)
    const job = await prisma.datasource.create({
      data: { organizationId: ctx.organizationId, datastoreId: store.id, type: 'text', name: 'held', status: 'running', leaseOwner: 'live-worker', leaseExpiresAt: until },
    })
    expect(await on(second, () => expireLeasesOfDeadWorkers())).toBe(0)
    expect(await prisma.datasource.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: 'running', leaseOwner: 'live-worker', leaseExpiresAt: until })
  })
})
