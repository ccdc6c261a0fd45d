// The BM25 statistics (chunks, total length, each lexeme's document frequency per datastore) are kept by triggers on
// "Chunk" in the writing transaction (migration 20261126130000_bm25_search): after adds, replacements, deletes of
// every kind and a restart, they equal a full recount from the chunks' text.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { getDatabase, openPglite } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { drainQueue } from '@/lib/ingest/worker'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

beforeAll(() => {
  delete process.env.OPENAI_API_KEY
  delete process.env.OPENAI_BASE_URL
})

/** Differences between the stored statistics and a recount from the chunks' text in their datastore's language. */
async function drift(sql: Pick<SqlDriver, 'query'>): Promise<unknown[]> {
  const recount = `WITH c AS (
      SELECT ch."datastoreId", search_document(d."language"::regconfig, ch.text) AS tsv FROM "Chunk" ch JOIN "Datastore" d ON d.id = ch."datastoreId"
    )`
  const totals = await sql.query(
    `${recount}, counted AS (SELECT "datastoreId", count(*)::bigint AS chunks, sum(search_length_by_positions(tsv))::bigint AS length FROM c GROUP BY 1),
     stored AS (SELECT "datastoreId", chunks, length FROM "DatastoreTextStats")
     (SELECT 'recount' AS side, * FROM counted EXCEPT SELECT 'recount', * FROM stored) UNION ALL (SELECT 'stored', * FROM stored EXCEPT SELECT 'stored', * FROM counted)`,
  )
  const terms = await sql.query(
    `${recount}, counted AS (SELECT c."datastoreId", l.lexeme, count(*)::int AS df FROM c, unnest(tsvector_to_array(c.tsv)) AS l(lexeme) GROUP BY 1, 2),
     stored AS (SELECT "datastoreId", lexeme, df FROM "DatastoreTerm")
     (SELECT 'recount' AS side, * FROM counted EXCEPT SELECT 'recount', * FROM stored) UNION ALL (SELECT 'stored', * FROM stored EXCEPT SELECT 'stored', * FROM counted)`,
  )
  const stale = await sql.query(
    `SELECT ch.id FROM "Chunk" ch JOIN "Datastore" d ON d.id = ch."datastoreId"
      WHERE ch.tsv IS DISTINCT FROM search_document(d."language"::regconfig, ch.text) OR ch."tsvLength" <> search_length_by_positions(ch.tsv)`,
  )
  return [...totals, ...terms, ...stale]
}

async function newStore(tenant: TestTenant, body: Record<string, unknown> = {}) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Stats', ...body } })
  expect(res.status).toBe(201)
  return res.json.id as string
}

async function upsertDocs(tenant: TestTenant, id: string, documents: { text: string; id?: string }[]): Promise<string[]> {
  const res = await call(upsert.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: id }, body: { documents } })
  expect(res.status).toBe(200)
  await drainQueue()
  return res.json.ids
}

const paragraph = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `The ${topic} report, section ${i}: results for ${topic} number ${i % 7} and its method.`).join(' ')

describe('BM25 statistics', () => {
  test("a chunk's length, read through ts_rank, is its tsvector's positions counted one by one, in every script", async () => {
    const { sql } = await getDatabase()
    const texts = [
      paragraph('kettle', 40),
      'Été über ñandú: l’été dernier, Ærø et Łódź.',
      '東京都の天気は晴れです',
      'Tokyo 東京 2026 weather 天気',
      'Привет мир, это проверка',
      '!!! ... ---',
      `${'warranty '.repeat(300)}end`,
      Array.from({ length: 20_000 }, (_, i) => `word${i % 997}`).join(' '),
    ]
    const rows = await sql.query<{ config: string; fast: number | null; counted: number | null }>(
      `SELECT cfg AS config, search_length(search_document(cfg::regconfig, t)) AS fast, search_length_by_positions(search_document(cfg::regconfig, t)) AS counted
         FROM unnest($1::text[]) AS t, unnest(ARRAY['english', 'simple', 'french']) AS cfg`,
      [texts],
    )
    expect(rows).toHaveLength(texts.length * 3)
    for (const row of rows) expect(row.fast).toBe(row.counted)
    // a lexeme keeps 256 positions at most; positions beyond 16,383 merge into that one
    expect(rows.filter(r => r.counted === 256)).toHaveLength(3)
    expect(rows.filter(r => r.counted === 17_379)).toHaveLength(3)
    expect(rows.filter(r => r.counted === 0).length).toBe(3)
    const [empty] = await sql.query<{ n: number | null; z: number }>(`SELECT search_length(NULL::tsvector) AS n, search_length(''::tsvector) AS z`)
    expect(empty).toEqual({ n: null, z: 0 })
  })

  test('adds, replacements, datasource and datastore deletes and a language change keep them equal to a recount', async () => {
    const tenant = await createTenant()
    const { sql } = await getDatabase()
    const a = await newStore(tenant)
    const b = await newStore(tenant, { language: 'french' })
    const ids = await upsertDocs(tenant, a, [{ text: paragraph('kettle', 300) }, { text: paragraph('toaster', 5) }, { text: 'Short note about kettles.' }])
    await upsertDocs(tenant, b, [{ text: 'Les chevaux mangent du foin. ' + paragraph('cheval', 50) }])
    expect(await drift(sql)).toEqual([])
    const [{ chunks }] = await sql.query<{ chunks: number }>(`SELECT chunks::int FROM "DatastoreTextStats" WHERE "datastoreId" = $1`, [a])
    expect(chunks).toBeGreaterThan(3) // the long document made several chunks

    // replacement: the same datasource with other content
    await upsertDocs(tenant, a, [{ id: ids[0], text: paragraph('blender', 40) }])
    expect(await drift(sql)).toEqual([])
    // deletes: a datasource (its chunks by cascade), then a datastore (everything in it)
    expect((await call(datasourceItem.DELETE, '/x', { method: 'DELETE', headers: tenant.headers, params: { id: ids[1] } })).status).toBe(200)
    expect(await drift(sql)).toEqual([])
    // a new language indexes the chunks again
    expect((await call(datastoreItem.PATCH, '/x', { method: 'PATCH', headers: tenant.headers, params: { id: a }, body: { language: 'simple' } })).json.language).toBe('simple')
    expect(await drift(sql)).toEqual([])
    expect((await call(datastoreItem.DELETE, '/x', { method: 'DELETE', headers: tenant.headers, params: { id: b } })).status).toBe(200)
    expect(await drift(sql)).toEqual([])
    expect(await sql.query(`SELECT * FROM "DatastoreTerm" WHERE "datastoreId" = $1`, [b])).toEqual([])
  })

  test('a lexeme no chunk holds any more is removed, and an emptied datastore has no statistics', async () => {
    const tenant = await createTenant()
    const { sql } = await getDatabase()
    const store = await newStore(tenant)
    const [doc] = await upsertDocs(tenant, store, [{ text: 'Zanzibar spices.' }])
    await upsertDocs(tenant, store, [{ id: doc, text: 'Pepper only.' }])
    expect((await sql.query<{ lexeme: string }>(`SELECT lexeme FROM "DatastoreTerm" WHERE "datastoreId" = $1 ORDER BY 1`, [store])).map(r => r.lexeme)).toEqual(['pepper'])
    await call(datasourceItem.DELETE, '/x', { method: 'DELETE', headers: tenant.headers, params: { id: doc } })
    expect(await sql.query(`SELECT * FROM "DatastoreTextStats" WHERE "datastoreId" = $1`, [store])).toEqual([])
    expect(await drift(sql)).toEqual([])
  })

  test('they survive a restart of the embedded database', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-stats-'))
    try {
      const first = await openPglite(dir)
      await first.sql.exec(`INSERT INTO "Organization" (id, name, "updatedAt") VALUES ('o', 'o', now());
        INSERT INTO "Datastore" (id, "organizationId", name, "updatedAt") VALUES ('s', 'o', 's', now());
        INSERT INTO "Datasource" (id, "organizationId", "datastoreId", type, name, "updatedAt") VALUES ('d', 'o', 's', 'text', 'd', now());
        INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens)
          SELECT 'c' || g, 'o', 's', 'd', g, 'Chunk ' || g || ' about topic' || (g % 13) || ' and the kettle', 5 FROM generate_series(1, 300) g;
        DELETE FROM "Chunk" WHERE position % 3 = 0;`)
      const before = await first.sql.query(`SELECT * FROM "DatastoreTerm" ORDER BY 1, 2`)
      await first.close()
      const second = await openPglite(dir)
      try {
        expect(await second.sql.query(`SELECT * FROM "DatastoreTerm" ORDER BY 1, 2`)).toEqual(before)
        expect(await second.sql.query(`SELECT chunks::int FROM "DatastoreTextStats"`)).toEqual([{ chunks: 200 }])
        expect(await drift(second.sql)).toEqual([])
      } finally {
        await second.close()
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
