// BM25 from postings kept in memory (lib/search/bm25-memory.ts) ranks exactly as the statements do (same chunks, same
// scores to the bit, same order), hides what the scope hides, and is used only while the postings are those of the
// datastore's current version: any statement that changes its chunks gives it a new one.
import { beforeEach, describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { forgetPostings, memoryRanking, readPostings, readsSettled } from '@/lib/search/bm25-memory'
import { tsvectorTerms } from '@/lib/search/bm25-postings'
import { bm25ScoreSql, lexemeQuery, rankByBm25, textStatistics, type TextStatistics } from '@/lib/search/fulltext'
import { scopeOf, type Scope } from '@/lib/search/scope'
import { createTenant, type TestTenant } from './helpers/tenants'

let seed = 7
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
const letters = 'bcdfghjklmnprstvz'
const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${letters[i % 17]}${letters[Math.floor(i / 17) % 17]}${letters[Math.floor(i / 289) % 17]}x`)
// a few words in most chunks, most words in few (Zipf), as in text
function zipfText(words: string[], n: number): string {
  return Array.from({ length: n }, () => words[Math.min(words.length - 1, Math.floor(1 / (random() + 1 / words.length)) - 1)]).join(' ')
}
const question = () => [zipfText(vocabulary.slice(0, 60), 4), zipfText(vocabulary.slice(0, 600), 3), zipfText(vocabulary, 2)].join(' ')

async function storeWithChunks(tenant: TestTenant, datasources: number, texts: string[], language = 'simple') {
  const prisma = await getPrisma()
  const { sql } = await getDatabase()
  const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'postings', language } })
  const sources: string[] = []
  for (let d = 0; d < datasources; d++) {
    sources.push((await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: `s${d}`, status: 'synched' } })).id)
  }
  for (let i = 0; i < texts.length; i += 500) await insertChunks(sql, tenant, store.id, sources, texts.slice(i, i + 500), i)
  return { id: store.id, sources }
}

async function insertChunks(sql: SqlDriver, tenant: TestTenant, datastoreId: string, sources: string[], texts: string[], first: number, generation = 0) {
  await sql.query(
    `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, generation)
     SELECT $2 || '-' || lpad((n + $6)::text, 5, '0'), $1, $2, ($3::text[])[1 + (n + $6) % array_length($3::text[], 1)], n + $6, t, 10, $5
       FROM unnest($4::text[]) WITH ORDINALITY AS u(t, n)`,
    [tenant.ctx.organizationId, datastoreId, sources, texts, generation, first],
  )
}

/** The statements' ranking and the one from memory for the same statistics (read in one transaction). */
async function bothRankings(scope: Scope, q: string, limit: number) {
  const { sql } = await getDatabase()
  return sql.transaction(async tx => {
    await tx.exec('SET LOCAL enable_seqscan = off')
    const stats = await textStatistics(tx, scope, q)
    const memory = memoryRanking(sql, scope, stats, limit)
    return { statements: await rankByBm25(tx, scope, stats, limit), memory: memory?.ranking ?? null, scoreOf: memory?.scoreOf, stats }
  })
}

/** Chunks' BM25 scores by the statements' bm25ScoreSql (how the vector ranking's candidates are scored). */
async function statementScores(stats: TextStatistics, ids: string[]): Promise<{ id: string; score: number }[]> {
  const { sql } = await getDatabase()
  const bm25 = bm25ScoreSql(stats, 2)
  const rows = await sql.query<{ id: string; score: number }>(`SELECT c.id, ${bm25.sql} AS score FROM "Chunk" c WHERE c.id = ANY($1::text[]) ORDER BY c.id`, [ids, ...bm25.params])
  return rows.map(r => ({ id: r.id, score: Number(r.score) }))
}

beforeEach(() => forgetPostings())

describe('BM25 from postings in memory', () => {
  test("a tsvector's lexemes and frequencies read from its text are PostgreSQL's", async () => {
    const { sql } = await getDatabase()
    const texts = ["it's a back\\slash 'quoted' ''twice''", 'Été über ñandú Łódź', '東京都の天気は晴れです', `${'warranty '.repeat(300)}end`, 'one two two three three three']
    const rows = await sql.query<{ tsv: string; terms: [string, number][] }>(
      `SELECT t.tsv::text AS tsv, (SELECT json_agg(json_build_array(u.lexeme, search_term_frequency(t.tsv, ('''' || replace(replace(u.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery)))
                                  FROM unnest(t.tsv) u) AS terms
         FROM (SELECT search_document(cfg::regconfig, x) AS tsv FROM unnest($1::text[]) AS x, unnest(ARRAY['simple', 'english']) AS cfg) t`,
      [texts],
    )
    expect(rows).toHaveLength(texts.length * 2)
    for (const row of rows) {
      const read: [string, number][] = []
      tsvectorTerms(row.tsv, (lexeme, frequency) => read.push([lexeme, frequency]))
      expect(read).toEqual(typeof row.terms === 'string' ? JSON.parse(row.terms) : row.terms)
    }
    expect(rows.some(r => r.terms.some(([lexeme, f]) => lexeme === 'warranty' && f === 255))).toBe(true) // a lexeme keeps 255 positions
    // ts_rank's arithmetic gives back each count of positions exactly
    const [{ wrong }] = await sql.query<{ wrong: number }>(
      `SELECT count(*)::int AS wrong FROM generate_series(1, 300) k, search_document('simple', repeat('w ', k)) d
        WHERE search_term_frequency(d, 'w'::tsquery) <> (SELECT array_length(positions, 1) FROM unnest(d))`,
    )
    expect(wrong).toBe(0)
    expect(lexemeQuery(["it's"], '|')).toBe(`'it''s'`)
  })

  test('ranks exactly as the statements do: the same chunks, scores and order, over one datastore and two', { timeout: 240_000 }, async () => {
    const tenant = await createTenant()
    const big = await storeWithChunks(tenant, 3, Array.from({ length: 1500 }, () => zipfText(vocabulary, 20 + Math.floor(random() * 80))))
    // its first 20 chunks hold none of the questions' words
    const small = await storeWithChunks(tenant, 1, Array.from({ length: 200 }, (_, i) => (i < 20 ? 'unrelated words only' : zipfText(vocabulary, 10 + Math.floor(random() * 30)))))
    const { sql } = await getDatabase()
    await readPostings(sql, tenant.ctx.organizationId, big.id)
    await readPostings(sql, tenant.ctx.organizationId, small.id)
    let [held, unheld] = [0, 0]
    for (const ids of [[big.id], [big.id, small.id]]) {
      const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: ids }, { datastoreIndex: false })
      for (let n = 0; n < 20; n++) {
        const q = question()
        for (const limit of [5, 24]) {
          const { statements, memory, scoreOf, stats } = await bothRankings(scope, q, limit)
          expect(statements.length).toBeGreaterThan(0)
          expect(memory, `${q} (${limit})`).toEqual(statements)
          // any chunk's score, as the vector ranking's candidates get theirs (0 for a chunk without the question's words)
          const some = Array.from({ length: 30 }, () => `${ids[Math.floor(random() * ids.length)] === big.id ? big.id : small.id}-${String(1 + Math.floor(random() * 200)).padStart(5, '0')}`)
          const expected = await statementScores(stats, some)
          expected.forEach(r => (r.score > 0 ? held++ : unheld++))
          expect(expected.map(r => ({ id: r.id, score: scoreOf!(r.id) }))).toEqual(expected)
        }
      }
    }
    expect(held).toBeGreaterThan(100)
    expect(unheld).toBeGreaterThan(10)
  })

  test('hides the datasources and generations the scope hides', { timeout: 120_000 }, async () => {
    const tenant = await createTenant()
    const store = await storeWithChunks(tenant, 3, Array.from({ length: 300 }, () => zipfText(vocabulary.slice(0, 300), 30)))
    const { sql } = await getDatabase()
    const prisma = await getPrisma()
    // a datasource in error, and a re-synchronisation's next generation not yet shown
    await prisma.datasource.update({ where: { id: store.sources[0] }, data: { status: 'error' } })
    await insertChunks(sql, tenant, store.id, [store.sources[1]], Array.from({ length: 50 }, () => zipfText(vocabulary.slice(0, 300), 30)), 1000, 1)
    await prisma.datasource.update({ where: { id: store.sources[1] }, data: { hiddenGeneration: 1 } })
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    const visible = new Set((await sql.query<{ id: string }>(`SELECT id FROM "Chunk" c WHERE ${scope.clause}`, scope.params)).map(r => r.id))
    expect(visible.size).toBe(200) // 300 chunks, a third in error; the 50 of generation 1 hidden
    for (let n = 0; n < 10; n++) {
      const { statements, memory } = await bothRankings(scope, question(), 50)
      expect(memory).toEqual(statements)
      expect(memory!.every(r => visible.has(r.id))).toBe(true)
    }
  })

  test('a statement that changes the chunks gives a new version: until the postings are read again, statements rank', { timeout: 120_000 }, async () => {
    const tenant = await createTenant()
    const store = await storeWithChunks(tenant, 1, Array.from({ length: 100 }, () => zipfText(vocabulary.slice(0, 100), 20)))
    const { sql } = await getDatabase()
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    const version = async () => (await sql.query<{ v: string }>(`SELECT version::text AS v FROM "DatastoreTextStats" WHERE "datastoreId" = $1`, [store.id]))[0]?.v
    const seen = new Set([await version()])
    expect((await bothRankings(scope, 'wbbbx', 5)).memory).toBeNull() // never read
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    expect((await bothRankings(scope, 'wbbbx', 5)).memory).not.toBeNull()

    const changes = [
      () => insertChunks(sql, tenant, store.id, store.sources, ['wqqqx wqqqx wqqqx'], 500),
      () => sql.query(`UPDATE "Chunk" SET text = 'wqqqx wrrrx' WHERE id = $1`, [`${store.id}-00501`]),
      () => sql.query(`DELETE FROM "Chunk" WHERE id = $1`, [`${store.id}-00501`]),
      () => sql.query(`DELETE FROM "Chunk" WHERE "datastoreId" = $1`, [store.id]),
      () => insertChunks(sql, tenant, store.id, store.sources, ['wqqqx'], 600),
    ]
    for (const change of changes) {
      // a stale ranking has the postings read in the background: one still running would read the change's version
      await readsSettled()
      await change()
      const now = await version()
      if (now === undefined) {
        expect((await bothRankings(scope, 'wqqqx', 5)).statements).toEqual([]) // no chunk: no statistics row
        continue
      }
      expect(seen.has(now), `${[...seen]} ${now}`).toBe(false)
      seen.add(now)
      const stale = await bothRankings(scope, 'wqqqx wrrrx', 5)
      expect(stale.memory).toBeNull()
      await readPostings(sql, tenant.ctx.organizationId, store.id)
      const fresh = await bothRankings(scope, 'wqqqx wrrrx', 5)
      expect(fresh.memory).toEqual(fresh.statements)
    }
    expect((await bothRankings(scope, 'wqqqx', 5)).memory).toEqual([{ id: `${store.id}-00601`, score: expect.any(Number) }])
  })

  test('a datastore larger than SEARCH_MEMORY_CHUNKS, and every one with 0, ranks with statements', async () => {
    const tenant = await createTenant()
    const store = await storeWithChunks(tenant, 1, Array.from({ length: 30 }, () => zipfText(vocabulary.slice(0, 50), 10)))
    const { sql } = await getDatabase()
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    try {
      process.env.SEARCH_MEMORY_CHUNKS = '29'
      await readPostings(sql, tenant.ctx.organizationId, store.id)
      expect((await bothRankings(scope, 'wbbbx wcccx', 5)).memory).toBeNull()
      process.env.SEARCH_MEMORY_CHUNKS = '30'
      await readPostings(sql, tenant.ctx.organizationId, store.id)
      const { memory, statements } = await bothRankings(scope, 'wbbbx wcccx', 5)
      expect(memory).toEqual(statements)
      process.env.SEARCH_MEMORY_CHUNKS = '0'
      expect((await bothRankings(scope, 'wbbbx wcccx', 5)).memory).toBeNull()
    } finally {
      delete process.env.SEARCH_MEMORY_CHUNKS
    }
  })

  test('a search with filters ranks with statements', async () => {
    const tenant = await createTenant()
    const store = await storeWithChunks(tenant, 2, ['wbbbx wcccx', 'wbbbx'])
    const { sql } = await getDatabase()
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const filtered = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id], filters: { datasource_ids: [store.sources[0]] } }, { datastoreIndex: false })
    const { statements, memory } = await bothRankings(filtered, 'wbbbx', 5)
    expect(memory).toBeNull()
    expect(statements).toHaveLength(1)
  })
})
