import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import { openPglite, openPostgres, useDatabase, type Database } from '@/lib/db/client'

// Every test file gets its own database with the migrations applied, and its own DATA_DIR for files: an in-memory
// PGlite in the `pglite` project; in the `postgres` project (vitest.config.mts, when TEST_DATABASE_URL is given) a
// schema of its own on that server, dropped afterwards, so files running at once never see each other's rows.
let database: Promise<Database>
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-test-'))
process.env.DATA_DIR = dir
process.env.NEXTAUTH_SECRET ??= 'test-secret-test-secret-test-secret'
process.env.LOG_LEVEL ??= 'error'
process.env.WORKER = 'off'
// every JSON success a handler answers is checked against its endpoint's declared schema (lib/http/endpoint.ts)
process.env.API_VALIDATE_RESPONSES = '1'

const postgresUrl = process.env.TEST_DATABASE === 'postgres' ? process.env.TEST_DATABASE_URL : undefined
const schema = `test_${randomBytes(6).toString('hex')}`

// The test server's URL with this file's schema, for tests that start processes of their own on it.
delete process.env.TEST_SCHEMA_URL
if (postgresUrl) {
  const url = new URL(postgresUrl)
  url.searchParams.set('schema', schema)
  process.env.TEST_SCHEMA_URL = url.toString()
}

beforeAll(async () => {
  const url = process.env.TEST_SCHEMA_URL
  // the migrated template of this run (tests/global-setup.ts), when there is one
  database = url ? openPostgres(url) : openPglite(undefined, { fromDump: inject('pgliteTemplate') || undefined })
  useDatabase(database)
  await database
})

afterAll(async () => {
  useDatabase(undefined)
  await (await database).close()
  fs.rmSync(dir, { recursive: true, force: true })
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl })
    await client.connect()
    try {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    } finally {
      await client.end()
    }
  }
})
