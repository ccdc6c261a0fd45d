// openPglite's `fromDump` (lib/db/client.ts): an in-memory embedded database started from a dump of another, as each
// test file's database starts from the run's migrated template (tests/global-setup.ts) instead of initdb and every
// migration.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { describe, expect, inject, test } from 'vitest'
import { openPglite } from '@/lib/db/client'
import { applyMigrations, readMigrations } from '@/lib/db/migrate'
import { pgliteDriver } from '@/lib/db/sql-driver'

describe('an embedded database started from a dump', () => {
  test('has the rows and the migrations of the database dumped, on the database thread and without it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-dump-'))
    const file = path.join(dir, 'dump.tar')
    try {
      const source = await PGlite.create({ extensions: { vector } })
      await applyMigrations(pgliteDriver(source))
      await source.exec(`CREATE TABLE dumped_marker (note text); INSERT INTO dumped_marker VALUES ('from the dump')`)
      fs.writeFileSync(file, Buffer.from(await (await source.dumpDataDir('none')).arrayBuffer()))
      await source.close()
      for (const thread of [true, false]) {
        const db = await openPglite(undefined, { thread, fromDump: file })
        try {
          expect(await db.sql.query(`SELECT note FROM dumped_marker`)).toEqual([{ note: 'from the dump' }])
          const [{ applied }] = await db.sql.query<{ applied: number }>(`SELECT count(*)::int AS applied FROM "_prisma_migrations"`)
          expect(applied).toBe(readMigrations().length)
          // and it is usable as any: pgvector's type and the ORM
          expect(await db.sql.query(`SELECT '[1,2]'::vector::text AS v`)).toEqual([{ v: '[1,2]' }])
          expect(await db.prisma.organization.count()).toBe(0)
        } finally {
          await db.close()
        }
      }
      await expect(openPglite(dir, { fromDump: file })).rejects.toThrow(/in-memory/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the test files of the embedded-database project start from the run\'s migrated template', () => {
    const template = inject('pgliteTemplate')
    if (process.env.TEST_DATABASE === 'postgres') return expect(template).toBe('')
    expect(fs.statSync(template).size).toBeGreaterThan(1_000_000)
  })
})
