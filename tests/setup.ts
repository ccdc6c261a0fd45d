import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { openPglite, useDatabase, type Database } from '@/lib/db/client'

// Every test file gets its own in-memory PGlite with the migrations applied, and its own DATA_DIR for files.
let database: Promise<Database>
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-test-'))
process.env.DATA_DIR = dir
process.env.NEXTAUTH_SECRET ??= 'test-secret-test-secret-test-secret'
process.env.LOG_LEVEL ??= 'error'
process.env.WORKER = 'off'

beforeAll(async () => {
  database = openPglite()
  useDatabase(database)
  await database
})

afterAll(async () => {
  useDatabase(undefined)
  await (await database).close()
  fs.rmSync(dir, { recursive: true, force: true })
})
