import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { describe, expect, test } from 'vitest'
import { applyMigrations, MigrationError, readMigrations } from '@/lib/db/migrate'
import { pgliteDriver } from '@/lib/db/sql-driver'

async function freshDriver() {
  return pgliteDriver(await PGlite.create({ extensions: { vector } }))
}

describe('migrations', () => {
  test('apply once, in order, and are recorded', async () => {
    const sql = await freshDriver()
    const migrations = [
      { name: '001_a', sql: 'CREATE TABLE a (id int)' },
      { name: '002_b', sql: 'ALTER TABLE a ADD COLUMN b text' },
    ]
    expect(await applyMigrations(sql, migrations)).toEqual(['001_a', '002_b'])
    expect(await applyMigrations(sql, migrations)).toEqual([])
    const rows = await sql.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations" ORDER BY started_at, migration_name')
    expect(rows.map(r => r.migration_name)).toEqual(['001_a', '002_b'])
    // a later migration is applied alone, after the recorded ones
    expect(await applyMigrations(sql, [...migrations, { name: '003_c', sql: 'ALTER TABLE a ADD COLUMN c int' }])).toEqual(['003_c'])
  })

  test('a failing migration stops with its name and leaves the database as it was', async () => {
    const sql = await freshDriver()
    await applyMigrations(sql, [{ name: '001_a', sql: 'CREATE TABLE a (id int)' }])
    const next = [
      { name: '001_a', sql: 'CREATE TABLE a (id int)' },
      { name: '002_b', sql: 'CREATE TABLE b (id int)' },
      { name: '003_bad', sql: 'ALTER TABLE nowhere ADD COLUMN x int' },
    ]
    const error = await applyMigrations(sql, next).catch(e => e)
    expect(error).toBeInstanceOf(MigrationError)
    expect(error.message).toContain('003_bad')
    expect(await sql.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'b'")).toEqual([])
    const names = (await sql.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations"')).map(r => r.migration_name)
    expect(names).toEqual(['001_a'])
  })

  test("the project's migrations create the chunk's vector and tsvector columns (the tsvector set by a trigger)", async () => {
    const sql = await freshDriver()
    expect((await applyMigrations(sql, readMigrations())).length).toBeGreaterThan(0)
    const columns = await sql.query<{ column_name: string; udt_name: string; is_generated: string }>(
      `SELECT column_name, udt_name, is_generated FROM information_schema.columns WHERE table_name = 'Chunk' AND column_name IN ('embedding', 'tsv') ORDER BY column_name`,
    )
    expect(columns).toEqual([
      { column_name: 'embedding', udt_name: 'vector', is_generated: 'NEVER' },
      // not generated since 20261126130000_bm25_search: a trigger computes it in the datastore's language
      { column_name: 'tsv', udt_name: 'tsvector', is_generated: 'NEVER' },
    ])
    const indexes = (await sql.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'Chunk'`)).map(i => i.indexname)
    expect(indexes).toEqual(expect.arrayContaining(['Chunk_tsv_idx', 'Chunk_embedding_1536_idx']))
  })
})
