import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { openPglite, type Database } from '@/lib/db/client'
import { ThreadedPglite } from '@/lib/db/pglite-thread'
import { Prisma } from '@/lib/generated/prisma/client'
import { longestLoopHold } from '../helpers/event-loop'

// The embedded database in a thread of its own (issue 28): the same answers as in-process, the event loop free while
// PostgreSQL works.

// a statement that keeps PostgreSQL busy about a second without sleeping (pg_sleep would not use the CPU)
const BUSY_STATEMENT = `SELECT count(*) AS n FROM generate_series(1, 3000000) g WHERE g % 7 = 0`

describe('the embedded database in a thread of its own', () => {
  let threaded: Database
  let inProcess: Database
  beforeAll(async () => {
    ;[threaded, inProcess] = await Promise.all([openPglite(undefined, { thread: true }), openPglite(undefined, { thread: false })])
  })
  afterAll(async () => {
    await Promise.all([threaded?.close(), inProcess?.close()])
  })

  test('is the default', async () => {
    const { config } = await import('@/lib/config')
    expect(config().DATABASE_THREAD).toBe('on')
  })

  test('a long statement leaves the event loop free; in-process it held it', async () => {
    const heldInProcess = await longestLoopHold(() => inProcess.sql.query(BUSY_STATEMENT))
    const heldThreaded = await longestLoopHold(() => threaded.sql.query(BUSY_STATEMENT))
    expect(heldInProcess).toBeGreaterThan(300)
    expect(heldThreaded).toBeLessThan(heldInProcess / 3)
  })

  test('values come back as in-process: numbers, text, arrays, JSON, times, bytes, null', async () => {
    const statement = `SELECT 1::int AS i, 2::bigint AS b, 1.5::real AS r, 't'::bool AS t, 'é'::text AS s,
      ARRAY['a','b']::text[] AS a, '{"k":[1]}'::jsonb AS j, '2026-11-26T10:00:00Z'::timestamptz AS at,
      '\\x0102'::bytea AS bytes, NULL::text AS nothing, '[1,2,3]'::vector AS v`
    const [fromThread] = await threaded.sql.query(statement)
    const [fromProcess] = await inProcess.sql.query(statement)
    expect(fromThread).toEqual(fromProcess)
    expect(fromThread.a).toEqual(['a', 'b'])
    expect(fromThread.at).toBeInstanceOf(Date)
  })

  test('bytes come back whole, as a Uint8Array, from empty to 200 KB, threaded and in-process', async () => {
    const sizes = [0, 1, 255, 4096, 200_000]
    const written = sizes.map(size => Uint8Array.from({ length: size }, (_, i) => (i * 7919 + size) % 256))
    for (const database of [threaded, inProcess]) {
      const rows = await database.sql.query<{ data: Uint8Array }>(`SELECT d AS data FROM unnest($1::bytea[]) WITH ORDINALITY AS t(d, n) ORDER BY n`, [written.map(w => '\\x' + Buffer.from(w).toString('hex'))])
      expect(rows.map(r => r.data.constructor)).toEqual(sizes.map(() => Uint8Array))
      expect(rows.map((r, i) => Buffer.from(r.data).equals(Buffer.from(written[i])))).toEqual(sizes.map(() => true))
      const [single] = await database.sql.query<{ data: Uint8Array }>(`SELECT $1::bytea AS data`, [written[4]])
      expect(Buffer.from(single.data).equals(Buffer.from(written[4]))).toBe(true)
    }
  })

  test('parameters cross as they are: bytes as binary vectors, arrays, dates', async () => {
    const vector = new Uint8Array(Buffer.from([0, 2, 0, 0, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0])) // pgvector's binary [1, 2]
    const rows = await threaded.sql.query<{ v: string; n: number; d: Date }>(
      `SELECT $1::vector::text AS v, cardinality($2::text[]) AS n, $3::timestamptz AS d`,
      [vector, ['x', 'y', 'z'], new Date('2026-01-02T03:04:05Z')],
    )
    expect(rows[0]).toEqual({ v: '[1,2]', n: 3, d: new Date('2026-01-02T03:04:05Z') })
  })

  test('database errors keep their code, so Prisma still answers P2002 for a duplicate', async () => {
    await expect(threaded.sql.query(`SELECT 1/0`)).rejects.toMatchObject({ code: '22012', message: 'division by zero' })
    const organization = await threaded.prisma.organization.create({ data: { name: 'Acme' } })
    const key = { organizationId: organization.id, name: 'k', prefix: 'p', hash: 'same-hash' }
    await threaded.prisma.apiKey.create({ data: key })
    const duplicate = await threaded.prisma.apiKey.create({ data: { ...key, name: 'again' } }).catch(e => e)
    expect(duplicate).toBeInstanceOf(Prisma.PrismaClientKnownRequestError)
    expect(duplicate.code).toBe('P2002')
  })

  test('a transaction is all or nothing, and other statements wait for it', async () => {
    await threaded.sql.exec(`CREATE TABLE thread_probe (n int)`)
    await expect(
      threaded.sql.transaction(async tx => {
        await tx.query(`INSERT INTO thread_probe VALUES (1)`)
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(await threaded.sql.query(`SELECT count(*)::int AS n FROM thread_probe`)).toEqual([{ n: 0 }])

    const order: string[] = []
    const inside = threaded.sql.transaction(async tx => {
      await tx.query(`INSERT INTO thread_probe VALUES (2)`)
      await new Promise(r => setTimeout(r, 50))
      order.push('transaction')
    })
    const outside = threaded.sql.query(`SELECT count(*)::int AS n FROM thread_probe`).then(rows => (order.push('outside'), rows))
    await inside
    expect(await outside).toEqual([{ n: 1 }])
    expect(order).toEqual(['transaction', 'outside'])
  })

  test('a statement already prepared, which runs without PGlite\'s locks when alone, still waits for an open transaction', async () => {
    await threaded.sql.exec(`CREATE TABLE thread_probe_alone (n int)`)
    const count = `SELECT count(*)::int AS n FROM thread_probe_alone WHERE n >= $1`
    for (let i = 0; i < 3; i++) expect(await threaded.sql.query(count, [0])).toEqual([{ n: 0 }])
    const order: string[] = []
    let outside: Promise<unknown> | undefined
    await threaded.sql.transaction(async tx => {
      await tx.query(`INSERT INTO thread_probe_alone VALUES (1)`)
      // nothing else is under way on the thread now: only the open transaction may hold this statement back
      outside = threaded.sql.query(count, [0]).then(rows => (order.push('outside'), rows))
      await new Promise(r => setTimeout(r, 50))
      order.push('transaction')
    })
    expect(await outside).toEqual([{ n: 1 }])
    expect(order).toEqual(['transaction', 'outside'])
  })

  test('prepared statements, PGlite\'s own queries and transactions all at once each get their own answer', async () => {
    await threaded.sql.exec(`CREATE TABLE thread_probe_mix (k int, v text)`)
    const prepared = `SELECT $1::int * 2 AS doubled, repeat('x', $1::int) AS text`
    await threaded.sql.query(prepared, [1])
    await threaded.sql.query(prepared, [1])
    const work = Array.from({ length: 240 }, (_, i) => {
      if (i % 3 === 0) return threaded.sql.query(prepared, [i]).then(rows => expect(rows).toEqual([{ doubled: i * 2, text: 'x'.repeat(i) }]))
      // a text seen once: PGlite's own exchange of several steps
      if (i % 3 === 1) return threaded.sql.query(`SELECT ${i}::int AS once, $1::text AS v`, [`v${i}`]).then(rows => expect(rows).toEqual([{ once: i, v: `v${i}` }]))
      return threaded.sql.transaction(async tx => {
        await tx.query(`INSERT INTO thread_probe_mix VALUES ($1, $2)`, [i, `t${i}`])
        expect(await tx.query(`SELECT v FROM thread_probe_mix WHERE k = $1`, [i])).toEqual([{ v: `t${i}` }])
      })
    })
    await Promise.all(work)
    expect(await threaded.sql.query(`SELECT count(*)::int AS n FROM thread_probe_mix`)).toEqual([{ n: 80 }])
  })

  test('Prisma transactions commit and roll back through the thread', async () => {
    const before = await threaded.prisma.organization.count()
    await threaded.prisma.$transaction(async tx => {
      await tx.organization.create({ data: { name: 'kept' } })
    })
    await threaded.prisma
      .$transaction(async tx => {
        await tx.organization.create({ data: { name: 'dropped' } })
        throw new Error('no')
      })
      .catch(() => {})
    expect(await threaded.prisma.organization.count()).toBe(before + 1)
  })

  test('a thread that stops fails every statement at once with a clear message, rather than hanging', async () => {
    const database = await ThreadedPglite.open(undefined)
    const worker = (database as unknown as { worker: { terminate(): Promise<number> } }).worker
    const pending = database.query(BUSY_STATEMENT)
    await worker.terminate()
    await expect(pending).rejects.toThrow(/database thread stopped/)
    await expect(database.query('SELECT 1')).rejects.toThrow(/database thread stopped/)
  })

  test('a statement that comes again is prepared once, and gives the same rows as the first time', async () => {
    const statement = `SELECT $1::text || '-' || $2::int AS label, 'prepared probe' AS probe`
    const runs = []
    for (let i = 0; i < 4; i++) runs.push(await threaded.sql.query(statement, ['run', i]))
    expect(runs.map(rows => rows[0].label)).toEqual(['run-0', 'run-1', 'run-2', 'run-3'])
    const prepared = await threaded.sql.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared probe%' AND statement NOT LIKE '%pg_prepared_statements%'`)
    expect(prepared).toHaveLength(1)
  })

  test('a prepared run reads its own response: large and multibyte rows, nulls, binary parameters, then PGlite reads its own again', async () => {
    // ~3 MB of rows: more than PGlite's 1 MB receive buffer, so PostgreSQL's answer comes in several pieces
    const large = `SELECT g AS n, repeat('é€', $1::int) AS text, CASE WHEN g % 2 = 0 THEN NULL ELSE g::text END AS odd FROM generate_series(1, 300) g`
    const expected = await inProcess.sql.query(large, [2000])
    for (let i = 0; i < 3; i++) expect(await threaded.sql.query(large, [2000])).toEqual(expected)
    const vector = new Uint8Array(Buffer.from([0, 2, 0, 0, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0])) // pgvector's binary [1, 2]
    for (let i = 0; i < 3; i++) {
      expect(await threaded.sql.query(`SELECT $1::vector::text AS v, $2::text AS s, $3::int AS n`, [vector, null, i])).toEqual([{ v: '[1,2]', s: null, n: i }])
      // a statement seen for the first time goes through PGlite's own protocol, right after a prepared run
      expect(await threaded.sql.query(`SELECT ${i} + 100 AS first_time_${i}`)).toEqual([{ [`first_time_${i}`]: i + 100 }])
    }
  })

  test('a prepared statement whose table changed is prepared again', async () => {
    await threaded.sql.exec(`CREATE TABLE changing (a int); INSERT INTO changing VALUES (1)`)
    for (let i = 0; i < 3; i++) expect(await threaded.sql.query(`SELECT * FROM changing`)).toEqual([{ a: 1 }])
    await threaded.sql.exec(`ALTER TABLE changing ADD COLUMN b text DEFAULT 'x'`)
    expect(await threaded.sql.query(`SELECT * FROM changing`)).toEqual([{ a: 1, b: 'x' }])
  })

  test('a prepared statement that fails leaves the database usable, in and out of transactions', async () => {
    const statement = `SELECT 10 / $1::int AS q`
    for (let i = 1; i <= 3; i++) expect(await threaded.sql.query(statement, [i])).toEqual([{ q: Math.floor(10 / i) }])
    await expect(threaded.sql.query(statement, [0])).rejects.toMatchObject({ code: '22012' })
    expect(await threaded.sql.query(statement, [5])).toEqual([{ q: 2 }])
    await expect(threaded.sql.transaction(tx => tx.query(statement, [0]))).rejects.toMatchObject({ code: '22012' })
    expect(await threaded.sql.transaction(tx => tx.query(statement, [2]))).toEqual([{ q: 5 }])
  })

  test('a statement with settings sees them, prepared or not, and leaves no transaction or setting behind', async () => {
    const statement = `SELECT current_setting('enable_seqscan') AS seqscan, 20 / $1::int AS q, 'settings probe' AS probe`
    const settings = 'SET LOCAL enable_seqscan = off; SET LOCAL work_mem = 1234'
    for (let i = 1; i <= 4; i++) expect(await threaded.sql.queryWithSettings(settings, statement, [i])).toEqual([{ seqscan: 'off', q: Math.floor(20 / i), probe: 'settings probe' }])
    const prepared = await threaded.sql.query(`SELECT 1 FROM pg_prepared_statements WHERE statement LIKE '%settings probe%' AND statement NOT LIKE '%pg_prepared_statements%'`)
    expect(prepared).toHaveLength(1)
    expect(await threaded.sql.query(`SELECT current_setting('enable_seqscan') AS s, current_setting('work_mem') AS m`)).toEqual([{ s: 'on', m: '4MB' }])
    // a failure ends its transaction: what comes next runs, with the default settings
    await expect(threaded.sql.queryWithSettings(settings, statement, [0])).rejects.toMatchObject({ code: '22012' })
    await expect(threaded.sql.queryWithSettings(settings, `SELECT * FROM no_such_table WHERE a = $1`, [1])).rejects.toMatchObject({ code: '42P01' })
    await expect(threaded.sql.queryWithSettings(settings, `SELECT * FROM no_such_table WHERE a = $1`, [1])).rejects.toMatchObject({ code: '42P01' })
    expect(await threaded.sql.queryWithSettings(settings, statement, [5])).toEqual([{ seqscan: 'off', q: 4, probe: 'settings probe' }])
    expect(await threaded.sql.query(`SELECT current_setting('enable_seqscan') AS s`)).toEqual([{ s: 'on' }])
    expect(await threaded.sql.transaction(tx => tx.query(`SELECT 7 AS n`))).toEqual([{ n: 7 }])
  })

  test('a statement with settings whose table changed is prepared again', async () => {
    await threaded.sql.exec(`CREATE TABLE changing_settings (a int); INSERT INTO changing_settings VALUES (1)`)
    for (let i = 0; i < 3; i++) expect(await threaded.sql.queryWithSettings('SET LOCAL enable_seqscan = off', `SELECT * FROM changing_settings`)).toEqual([{ a: 1 }])
    await threaded.sql.exec(`ALTER TABLE changing_settings ADD COLUMN b text DEFAULT 'x'`)
    expect(await threaded.sql.queryWithSettings('SET LOCAL enable_seqscan = off', `SELECT * FROM changing_settings`)).toEqual([{ a: 1, b: 'x' }])
  })

  test('with a statement profile, each statement text gets its runs and its time in the file', { timeout: 60_000 }, async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-profile-')), 'statements.tsv')
    const profiled = await ThreadedPglite.open(undefined, { statementProfile: file })
    try {
      for (let i = 0; i < 3; i++) await profiled.query(`SELECT $1::int + 1 AS n, 'profile probe' AS probe`, [i])
      await profiled.queryWithSettings('SET LOCAL enable_seqscan = off', `SELECT   count(*)  FROM generate_series(1, 50000)`)
      const lines = async () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split('\n').filter(Boolean).map(l => l.split('\t'))
      await vi.waitFor(async () => expect((await lines()).some(([, , key]) => key.startsWith('settingsQuery SELECT count(*) FROM'))).toBe(true), { timeout: 10_000, interval: 200 })
      const [runs, ms] = (await lines()).find(([, , key]) => key === `query SELECT $1::int + 1 AS n, 'profile probe' AS probe`)!
      expect(Number(runs)).toBe(3)
      expect(Number(ms)).toBeGreaterThan(0)
      const [, counting] = (await lines()).find(([, , key]) => key.startsWith('settingsQuery SELECT count(*)'))!
      expect(Number(counting)).toBeGreaterThan(Number(ms) / 3)
    } finally {
      await profiled.close()
    }
  })

  test('the statements waiting on the thread are counted, the running one included', async () => {
    expect(threaded.pending!()).toBe(0)
    const running = [threaded.sql.query(BUSY_STATEMENT), threaded.sql.query('SELECT 1'), threaded.sql.query('SELECT 2')]
    expect(threaded.pending!()).toBe(3)
    await Promise.all(running)
    expect(threaded.pending!()).toBe(0)
    expect(inProcess.pending).toBeUndefined()
  })

  test('a script that leaves the database open still ends, after its statements are answered', { timeout: 60_000 }, async () => {
    const { spawnSync } = await import('node:child_process')
    const child = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'tests/fixtures/database-left-open.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 50_000,
    })
    expect(child.error).toBeUndefined() // not killed by the timeout: it ended by itself
    expect(child.stdout.trim()).toBe('{"answer":42}')
    expect(child.status).toBe(0)
  })

  test("PostgreSQL's WebAssembly is compiled by the process's first thread only; the next ones are given it", async () => {
    const database = await ThreadedPglite.open(undefined)
    try {
      expect(database.compiledModulesHere).toBe(false)
      expect((await database.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      await database.close()
    }
  })

  test('the WebAssembly heap is still reported', () => {
    expect(threaded.heap!().bytes).toBeGreaterThan(10 * 2 ** 20)
  })
})

describe('a first start on disk', () => {
  // creating the cluster and running every migration leave memory the thread never gives back (~80 MB idle after a
  // first start: docs/benchmarks.md): the database that did it is closed, and a fresh one serves
  test('vacuums and opens the database again once migrated; a start with nothing to migrate opens it once', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-start-'))
    const opened = vi.spyOn(ThreadedPglite, 'open')
    // a migration may write a table's rows again (20261127020000): nothing else vacuums the embedded database
    const scripts = vi.spyOn(ThreadedPglite.prototype, 'exec')
    const vacuums = () => scripts.mock.calls.filter(([sql]) => sql === 'VACUUM').length
    try {
      const first = await openPglite(dir, { thread: true })
      expect(opened).toHaveBeenCalledTimes(2)
      expect(vacuums()).toBe(1)
      await first.prisma.organization.create({ data: { name: 'Kept' } })
      await first.close()
      opened.mockClear()
      scripts.mockClear()
      const second = await openPglite(dir, { thread: true })
      expect(opened).toHaveBeenCalledTimes(1)
      expect(vacuums()).toBe(0)
      expect(await second.prisma.organization.findMany({ select: { name: true } })).toEqual([{ name: 'Kept' }])
      await second.close()
    } finally {
      opened.mockRestore()
      scripts.mockRestore()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
