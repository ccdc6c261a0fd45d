// BM25 on PostgreSQL full-text search (lib/search/fulltext.ts, migration 20261126130000_bm25_search): the score of a
// hand-computed example, term frequencies read exactly, one tokenisation for questions and chunks in any language
// (CJK as bigrams), and a query path that the GIN index drives on the database as the app leaves it.
import { beforeAll, describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { newId } from '@/lib/db/ids'
import type { SearchLanguage } from '@/lib/domain/languages'
import { fulltextRanking, fulltextRankingWithCeiling } from '@/lib/search/fulltext'
import { completeScores, hybridSearch } from '@/lib/search/hybrid-search'
import { scopeOf } from '@/lib/search/scope'
import { createTenant, type TestTenant } from './helpers/tenants'

beforeAll(() => {
  delete process.env.OPENAI_API_KEY
  delete process.env.OPENAI_BASE_URL
  // the statements' ranking (BM25 from postings in memory: tests/search-bm25-memory.test.ts)
  process.env.SEARCH_MEMORY_CHUNKS = '0'
})

/** A datastore in `language` with one synched datasource per text, one chunk each, written as the worker writes them. */
async function storeWith(tenant: TestTenant, texts: string[], language: SearchLanguage = 'english') {
  const prisma = await getPrisma()
  const { sql } = await getDatabase()
  const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'kb', language } })
  const chunkIds: string[] = []
  for (const text of texts) {
    const ds = await prisma.datasource.create({
      data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: text.slice(0, 20), status: 'synched', nbChunks: 1 },
    })
    const id = newId()
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens) VALUES ($1, $2, $3, $4, 0, $5, 10)`,
      [id, tenant.ctx.organizationId, store.id, ds.id, text],
    )
    chunkIds.push(id)
  }
  return { store, chunkIds }
}

const rank = async (tenant: TestTenant, datastoreIds: string[], query: string, limit = 10) =>
  fulltextRanking((await getDatabase()).sql, scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds }, { datastoreIndex: false }), query, limit)

const firstText = async (tenant: TestTenant, datastoreId: string, query: string) =>
  (await hybridSearch({ organizationId: tenant.ctx.organizationId, datastoreIds: [datastoreId], query, topK: 3 }))[0]?.text

describe('BM25', () => {
  test('the score of a small example matches the one computed by hand', async () => {
    const tenant = await createTenant()
    // lexemes (english): c1 cat chase mice (length 3); c2 cat ×3 sleep eat purr (6); c3 dog bark (2)
    const { store, chunkIds } = await storeWith(tenant, ['Cats chase mice.', 'Cats sleep. Cats eat. Cats purr.', 'Dogs bark.'])
    const lengths = await (await getDatabase()).sql.query<{ id: string; len: number }>(`SELECT id, "tsvLength" AS len FROM "Chunk" WHERE id = ANY($1::text[])`, [chunkIds])
    expect(chunkIds.map(id => lengths.find(l => l.id === id)!.len)).toEqual([3, 6, 2])
    // N = 3, average length 11/3, df(cat) = 2: idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.47000362924573563
    // c1: tf 1, length 3: 1 · 2.2 / (1 + 1.2 · (0.25 + 0.75 · 3 / (11/3))) = 2.2 / 2.0363636… = 1.080357142857143
    // c2: tf 3, length 6: 3 · 2.2 / (3 + 1.2 · (0.25 + 0.75 · 6 / (11/3))) = 6.6 / 4.7727272… = 1.382857142857143
    const ranked = await rank(tenant, [store.id], 'Are cats asleep?')
    expect(ranked.map(r => r.id)).toEqual([chunkIds[1], chunkIds[0]])
    expect(ranked[0].score).toBeCloseTo(0.47000362924573563 * 1.382857142857143, 6)
    expect(ranked[1].score).toBeCloseTo(0.47000362924573563 * 1.080357142857143, 6)
    expect(Math.abs(ranked[0].score - 0.6499478758712459)).toBeLessThan(1e-6)
    expect(Math.abs(ranked[1].score - 0.5077717780244109)).toBeLessThan(1e-6)
  })

  test('a term frequency is read exactly from the tsvector for every count it can hold (1 to 255)', async () => {
    const { sql } = await getDatabase()
    const rows = await sql.query<{ n: number; tf: number }>(
      `SELECT n, search_term_frequency(to_tsvector('simple', repeat('x ', n) || 'y'), 'x'::tsquery) AS tf FROM generate_series(0, 255) AS n`,
    )
    expect(rows.filter(r => Number(r.tf) !== r.n)).toEqual([])
  })

  test('equal scores come in chunk id order, the same on every run', async () => {
    const tenant = await createTenant()
    const { store, chunkIds } = await storeWith(tenant, Array.from({ length: 8 }, () => 'Identical lamp spare parts.'))
    const ranked = await rank(tenant, [store.id], 'lamp')
    expect(ranked.map(r => r.id)).toEqual([...chunkIds].sort())
  })
})

describe('one tokenisation, any language', () => {
  test('IL-6 in a document is found by the question "IL-6"', async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, [
      'Serum IL-6 concentrations rose after surgery.',
      'Interleukin levels were measured in 6 patients.',
      'The IL receptor family is large.',
    ])
    expect(await firstText(tenant, store.id, 'IL-6')).toBe('Serum IL-6 concentrations rose after surgery.')
  })

  test('a French datastore matches across inflections', async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, ['Les chevaux mangent du foin.', 'La voiture est rouge.'], 'french')
    expect(await firstText(tenant, store.id, 'cheval')).toBe('Les chevaux mangent du foin.')
  })

  test('a German datastore matches across inflections', async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, ['Die Häuser der Kinder sind klein.', 'Der Wagen ist rot.'], 'german')
    expect(await firstText(tenant, store.id, 'Haus')).toBe('Die Häuser der Kinder sind klein.')
    expect(await firstText(tenant, store.id, 'Kindern')).toBe('Die Häuser der Kinder sind klein.')
  })

  test('a Chinese and a Japanese document are found by a two-character word', async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, ['北京大学是中国著名的高等学府。', '東京都に住んでいます。', 'An English note.'])
    expect(await firstText(tenant, store.id, '大学')).toBe('北京大学是中国著名的高等学府。')
    expect(await firstText(tenant, store.id, '東京')).toBe('東京都に住んでいます。')
  })

  test("changing a datastore's language indexes its chunks again", async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, ['Les chevaux mangent du foin.'], 'simple')
    expect(await firstText(tenant, store.id, 'cheval')).toBeUndefined()
    await (await getPrisma()).datastore.update({ where: { id: store.id }, data: { language: 'french' } })
    expect(await firstText(tenant, store.id, 'cheval')).toBe('Les chevaux mangent du foin.')
  })
})

/** Runs fulltextRanking while recording the plan (EXPLAIN, same transaction and settings) of each statement on "Chunk". */
/** The driver, recording the plan of every statement that reads "Chunk", however it is run. */
function explaining(sql: SqlDriver, plans: string[]): SqlDriver {
  const explain = (text: string, run: (text: string) => Promise<Record<string, unknown>[]>) =>
    /"Chunk"/.test(text) ? run(`EXPLAIN ${text}`).then(rows => void plans.push(rows.map(r => r['QUERY PLAN']).join('\n'))) : Promise.resolve()
  return {
    ...sql,
    query: async <T,>(text: string, params?: unknown[]) => {
      await explain(text, t => sql.query(t, params))
      return sql.query<T>(text, params)
    },
    queryWithSettings: async <T,>(settings: string, text: string, params?: unknown[]) => {
      await explain(text, t => sql.queryWithSettings(settings, t, params))
      return sql.queryWithSettings<T>(settings, text, params)
    },
    transaction: fn =>
      sql.transaction(tx =>
        fn({
          ...tx,
          query: async <T,>(text: string, params?: unknown[]) => {
            await explain(text, t => tx.query(t, params))
            return tx.query<T>(text, params)
          },
        }),
      ),
  }
}

describe('query path', () => {
  test('no ranking statement scans "Chunk" sequentially at 20,000 chunks, without ANALYZE', { timeout: 240_000 }, async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const { sql } = await getDatabase()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'big' } })
    const ds = await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: 'big', status: 'synched' } })
    for (let from = 0; from < 20_000; from += 5_000) {
      await sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens)
         SELECT 'big' || g, $1, $2, $3, g, format('Report %s about topic%s and subject%s, with common words: system data results method.', g, g % 97, g % 1013), 20
         FROM generate_series($4::int, $4::int + 4999) g`,
        [tenant.ctx.organizationId, store.id, ds.id, from],
      )
    }
    const [{ reltuples }] = await sql.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE oid = '"Chunk"'::regclass`)
    // never analysed on the embedded database (no autovacuum): the planner has no statistics. PostgreSQL's autovacuum
    // may analyse the table meanwhile; the plans must hold either way
    if (sql.kind === 'pglite') expect(reltuples).toBeLessThan(20_000)
    const plans: string[] = []
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    const ranked = await fulltextRanking(explaining(sql, plans), scope, 'system results for topic5 and subject77', 10)
    expect(ranked.length).toBe(10)
    expect(plans.length).toBeGreaterThan(0)
    for (const plan of plans) {
      expect(plan).not.toMatch(/Seq Scan on "Chunk"/)
      expect(plan).toContain('Chunk_tsv_idx')
    }
    // hybrid search scores the other ranking's candidates by id on the same scale: the primary key finds them
    const words = await fulltextRankingWithCeiling(sql, scope, 'system results for topic5 and subject77', 1)
    const byId: string[] = []
    const completed = await completeScores({ ...sql, query: async (text, params) => {
      byId.push((await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).map(r => r['QUERY PLAN']).join('\n'))
      return sql.query(text, params)
    } }, words, { embedding: [1, 0, 0], ranking: [{ id: ranked[1].id, score: 0.9 }, { id: 'big19999', score: 0.8 }] })
    expect(completed.words.ranking.slice(0, 2)).toEqual(ranked.slice(0, 2)) // the second best by words, scored by id
    expect(byId).toHaveLength(1)
    expect(byId[0]).not.toMatch(/Seq Scan on "Chunk"/)
    expect(byId[0]).toContain('Chunk_pkey')
  })
})
