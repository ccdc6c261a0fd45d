// Once a test run: an in-memory PGlite with every migration applied, dumped to a file that each test file's database
// starts from (tests/setup.ts, openPglite's fromDump): ~0.8 s instead of ~3 s of initdb and migrations a file, over
// the 240 files of the `pglite` project.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import type { TestProject } from 'vitest/node'
import { applyMigrations } from '@/lib/db/migrate'
import { pgliteDriver } from '@/lib/db/sql-driver'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template's dump, or '' when the run has no embedded-database project. */
    pgliteTemplate: string
  }
}

export default async function setup(project: TestProject) {
  // run for the root and for each project (vitest.config.mts): only the `pglite` project's files use it
  if (project.name !== 'pglite') return project.provide('pgliteTemplate', '')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-template-'))
  const file = path.join(dir, 'migrated.tar')
  const db = await PGlite.create({ extensions: { vector } })
  try {
    await applyMigrations(pgliteDriver(db))
    fs.writeFileSync(file, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()))
  } finally {
    await db.close()
  }
  project.provide('pgliteTemplate', file)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
