import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { toVectorBinary } from '@/lib/db/vector-binary'

// A chunk's keys (id, organization, datastore, datasource) and metadata stay in its row, next to its tsvector: every
// ranking reads the keys of each candidate (the scope), the filters its metadata. Out of the row (TOAST), each read
// cost three buffer reads and a copy, most of a BM25 candidate's cost (issue 28).

const CHUNKS = 20
const MIGRATION = path.join(process.cwd(), 'prisma/migrations/20261127020000_chunk_keys_in_row/migration.sql')

/** Chunks of 300 distinct words (a tsvector of several kB: the row stays over the TOAST threshold) and 64 dimensions. */
async function writeChunks(sql: SqlDriver, prefix: string): Promise<void> {
  await sql.exec(`INSERT INTO "Organization" (id, name, "updatedAt") VALUES ('${prefix}-organization-0000000001', 'o', now());
    INSERT INTO "Datastore" (id, "organizationId", name, "updatedAt") VALUES ('${prefix}-datastore-00000000000001', '${prefix}-organization-0000000001', 's', now());
    INSERT INTO "Datasource" (id, "organizationId", "datastoreId", type, name, "updatedAt")
      VALUES ('${prefix}-datasource-0000000000001', '${prefix}-organization-0000000001', '${prefix}-datastore-00000000000001', 'text', 'd', now());`)
  const embedding = toVectorBinary(Array.from({ length: 64 }, (_, i) => Math.sin(i + 1)))
  for (let i = 0; i < CHUNKS; i++) {
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, embedding)
       VALUES ($1, $2, $3, $4, $5, (SELECT string_agg('word' || ($5 * 1000 + k), ' ') FROM generate_series(1, 300) k), 300, '{"source": "a page of the manual"}', $6::vector)`,
      [`${prefix}-chunk-${String(i).padStart(20, '0')}`, `${prefix}-organization-0000000001`, `${prefix}-datastore-00000000000001`,
        `${prefix}-datasource-0000000000001`, i, embedding],
    )
  }
}

/** Values stored out of their rows in the TOAST table of "Chunk". */
async function toastedValues(sql: SqlDriver): Promise<number> {
  const [{ toast }] = await sql.query<{ toast: string }>(`SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = '"Chunk"'::regclass`)
  const [{ n }] = await sql.query<{ n: number }>(`SELECT count(DISTINCT chunk_id)::int AS n FROM ${toast}`)
  return n
}

describe('a chunk row', () => {
  test('keeps its keys and metadata in the row; at most its text and embedding go out', async () => {
    const { sql } = await getDatabase()
    const before = await toastedValues(sql)
    await writeChunks(sql, 'row')
    // before migration 20261127020000 seven values a chunk went out (the four keys and the metadata too)
    expect(await toastedValues(sql) - before).toBeLessThanOrEqual(2 * CHUNKS)
  })

  test('written before the migration, is written again with its keys in the row', async () => {
    const { sql } = await getDatabase()
    // the storage as it was before the migration
    await sql.exec(`ALTER TABLE "Chunk" ALTER COLUMN "id" SET STORAGE EXTENDED, ALTER COLUMN "organizationId" SET STORAGE EXTENDED,
      ALTER COLUMN "datastoreId" SET STORAGE EXTENDED, ALTER COLUMN "datasourceId" SET STORAGE EXTENDED,
      ALTER COLUMN "metadata" SET STORAGE EXTENDED`)
    const before = await toastedValues(sql)
    await writeChunks(sql, 'old')
    expect(await toastedValues(sql) - before).toBeGreaterThanOrEqual(7 * CHUNKS)
    const [{ tsv }] = await sql.query<{ tsv: string }>(`SELECT md5(string_agg(tsv::text, '' ORDER BY id)) AS tsv FROM "Chunk" WHERE "datastoreId" = 'old-datastore-00000000000001'`)

    await sql.transaction(tx => tx.exec(fs.readFileSync(MIGRATION, 'utf8')))

    const [{ n }] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Chunk" WHERE "datastoreId" = 'old-datastore-00000000000001'`)
    expect(n).toBe(CHUNKS)
    // the old versions' values are still in the TOAST table until a vacuum: count the live rows' values
    const [{ toast }] = await sql.query<{ toast: string }>(`SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = '"Chunk"'::regclass`)
    await sql.exec('VACUUM "Chunk"')
    const [{ left }] = await sql.query<{ left: number }>(`SELECT count(DISTINCT chunk_id)::int AS left FROM ${toast}`)
    expect(left - before).toBeLessThanOrEqual(2 * CHUNKS)
    // the same rows: the tsvectors (and so the statistics the triggers keep) are untouched
    const [after] = await sql.query<{ tsv: string }>(`SELECT md5(string_agg(tsv::text, '' ORDER BY id)) AS tsv FROM "Chunk" WHERE "datastoreId" = 'old-datastore-00000000000001'`)
    expect(after.tsv).toBe(tsv)
    const [{ dims }] = await sql.query<{ dims: number }>(`SELECT min(vector_dims(embedding))::int AS dims FROM "Chunk" WHERE "datastoreId" = 'old-datastore-00000000000001'`)
    expect(dims).toBe(64)
  })
})
