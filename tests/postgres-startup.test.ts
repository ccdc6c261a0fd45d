import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import { openPostgres, type Database } from '@/lib/db/client'
import { applyMigrations } from '@/lib/db/migrate'
import { postgresDriver } from '@/lib/db/sql-driver'

// Several processes starting together on an empty PostgreSQL (the scale-out placement's first deploy): each round
// gets a fresh schema, i.e. an empty database. Postgres project only (vitest.config.mts).
const root = path.resolve(import.meta.dirname, '..')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-pg-start-'))
const schemas: string[] = []

function freshSchemaUrl(): string {
  const url = new URL(process.env.TEST_SCHEMA_URL!)
  const schema = `start_${randomBytes(5).toString('hex')}`
  schemas.push(schema)
  url.searchParams.set('schema', schema)
  return url.toString()
}

afterAll(async () => {
  const server = new URL(process.env.TEST_SCHEMA_URL!)
  server.searchParams.delete('schema')
  const client = new pg.Client({ connectionString: server.toString() })
  await client.connect()
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await client.end()
  fs.rmSync(tmp, { recursive: true, force: true })
})

// what a web process does at start (lib/bootstrap.ts), alone in a Node process of its own
const child = path.join(tmp, 'web-start.mts')
fs.writeFileSync(child, `import { bootstrap } from ${JSON.stringify(path.join(root, 'lib/bootstrap.ts'))}\nconst db = await bootstrap({ web: true, worker: false })\nawait db.close()\nprocess.exit(0)\n`)

function startWebProcess(databaseUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise(resolve => {
    const proc = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', child], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: path.join(tmp, 'data'), INIT_ADMIN_PASSWORD: 'first-run-password', INIT_API_KEY: '', LOG_LEVEL: 'error', WORKER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    proc.stdout.on('data', d => { out += d })
    proc.stderr.on('data', d => { out += d })
    proc.on('exit', code => resolve({ code, out }))
  })
}

describe.skipIf(!process.env.TEST_SCHEMA_URL)('several processes starting at once on an empty PostgreSQL', () => {
  test('migrations: four connections migrating one empty database together all succeed, each migration applied once', async () => {
    for (let round = 0; round < 5; round++) {
      const url = freshSchemaUrl()
      const schema = new URL(url).searchParams.get('schema')!
      const base = new URL(url)
      base.searchParams.delete('schema')
      const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: base.toString(), max: 2, options: `-c search_path="${schema}",public` }))
      try {
        await pools[0].query(`CREATE SCHEMA "${schema}"`)
        const results = await Promise.allSettled(pools.map(pool => applyMigrations(postgresDriver(pool))))
        expect(results.filter(r => r.status === 'rejected').map(r => String((r as PromiseRejectedResult).reason))).toEqual([])
        const applied = results.map(r => (r as PromiseFulfilledResult<string[]>).value)
        // one process applied them all, the others found them recorded
        expect(applied.filter(names => names.length > 0)).toHaveLength(1)
        const recorded = await pools[0].query('SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1')
        expect(recorded.rows.every(r => r.n === 1)).toBe(true)
        expect(recorded.rows).toHaveLength(applied.find(names => names.length > 0)!.length)
      } finally {
        await Promise.all(pools.map(pool => pool.end()))
      }
    }
  })

  test('first admin: four web processes started together create exactly one organization, admin and key (three rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const url = freshSchemaUrl()
      const runs = await Promise.all(Array.from({ length: 4 }, () => startWebProcess(url)))
      expect(runs.filter(r => r.code !== 0).map(r => r.out)).toEqual([])
      expect(runs.filter(r => r.out.includes('First run: created')).length).toBe(1)
      const db: Database = await openPostgres(url)
      try {
        expect(await db.prisma.user.count()).toBe(1)
        expect(await db.prisma.organization.count()).toBe(1)
        expect(await db.prisma.apiKey.count()).toBe(1)
      } finally {
        await db.close()
      }
    }
  }, 180_000)
})
