// The vector ranking from embeddings kept in memory (lib/search/vector-memory.ts, bm25-memory.ts memoryNearest) finds
// what the vector ranking's statement finds by an exact search, in its order, with its cosines; hides what the scope
// hides; is used only while the embeddings are those of the datastore's current version; and leaves a size of which a
// datastore holds more than MAX_SCANNED_FLOATS values to the statement (and its index).
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { embedText } from '@/e2e/support/fake-openai-server.mjs'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { toVectorLiteral } from '@/lib/embeddings/provider'
import { forgetPostings, memoryNearest, memoryRanking, readPostings, readsSettled } from '@/lib/search/bm25-memory'
import { textStatistics } from '@/lib/search/fulltext'
import { hybridSearch, vectorRankingStatement } from '@/lib/search/hybrid-search'
import { scopeOf, type Scope } from '@/lib/search/scope'
import { MAX_SCANNED_FLOATS } from '@/lib/search/vector-memory'
import { useFakeEmbeddings } from './helpers/fake-embeddings'
import { createTenant, type TestTenant } from './helpers/tenants'

const D = 64
useFakeEmbeddings(D)

let seed = 11
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
const randomVector = (d = D) => Array.from({ length: d }, () => random() * 2 - 1)

/** A datastore whose chunks have these embeddings (null: none), spread over `datasources` datasources. */
async function storeWithVectors(tenant: TestTenant, datasources: number, vectors: (number[] | null)[]) {
  const prisma = await getPrisma()
  const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'vectors' } })
  const sources: string[] = []
  for (let d = 0; d < datasources; d++) {
    sources.push((await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: `s${d}`, status: 'synched' } })).id)
  }
  await insertVectors(tenant, store.id, sources, vectors, 0)
  return { id: store.id, sources }
}

async function insertVectors(tenant: TestTenant, datastoreId: string, sources: string[], vectors: (number[] | null)[], first: number, generation = 0) {
  const { sql } = await getDatabase()
  await sql.query(
    `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, generation, embedding)
     SELECT $2 || '-' || lpad((n + $6)::text, 5, '0'), $1, $2, ($3::text[])[1 + (n + $6) % array_length($3::text[], 1)], n + $6, 'chunk ' || n, 10, $5, v::vector
       FROM unnest($4::text[]) WITH ORDINALITY AS u(v, n)`,
    [tenant.ctx.organizationId, datastoreId, sources, vectors.map(v => v && toVectorLiteral(v)), generation, first],
  )
}

/** The statement's ranking by an exact search (no index), and the one from memory, for the same statistics. */
async function bothNearest(scope: Scope, embedding: number[], pool: number) {
  const { sql } = await getDatabase()
  return sql.transaction(async tx => {
    await tx.exec('SET LOCAL enable_indexscan = off')
    const stats = await textStatistics(tx, scope, 'chunk')
    const memory = memoryNearest(sql, scope, stats, embedding, pool)
    const statement = vectorRankingStatement(scope, embedding.length, pool, false)
    const rows = await tx.query<{ id: string; distance: number }>(statement.text, [...scope.params, toVectorLiteral(embedding)])
    return { statement: rows.map(r => ({ id: r.id, score: 1 - Number(r.distance) })), memory, stats }
  })
}

const closeTo = (ranking: { id: string; score: number }[]) => ranking.map(r => ({ id: r.id, score: expect.closeTo(r.score, 6) }))

beforeEach(() => forgetPostings())
afterEach(() => void delete process.env.SEARCH_MEMORY_CHUNKS)

describe('the vector ranking from embeddings in memory', () => {
  test('finds what an exact search finds, in its order (ties by id), with its cosines, over one datastore and two', { timeout: 120_000 }, async () => {
    const tenant = await createTenant()
    const twin = randomVector()
    // two chunks with the same embedding, one of zeros, one without, five of another size
    const big = await storeWithVectors(tenant, 3, [...Array.from({ length: 400 }, () => randomVector()), twin, twin, Array(D).fill(0), null, ...Array.from({ length: 5 }, () => randomVector(8))])
    const small = await storeWithVectors(tenant, 1, Array.from({ length: 100 }, () => randomVector()))
    const { sql } = await getDatabase()
    await readPostings(sql, tenant.ctx.organizationId, big.id)
    await readPostings(sql, tenant.ctx.organizationId, small.id)
    const queries = [twin, ...Array.from({ length: 15 }, () => randomVector())]
    for (const ids of [[big.id], [big.id, small.id]]) {
      const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: ids })
      for (const query of queries) {
        for (const pool of [20, 60]) {
          const { statement, memory } = await bothNearest(scope, query, pool)
          expect(statement).toHaveLength(pool)
          expect(memory!.ranking).toEqual(closeTo(statement))
        }
      }
    }
    // the twins first for their own embedding, in id order, at similarity 1
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [big.id] })
    const { memory } = await bothNearest(scope, twin, 2)
    expect(memory!.ranking).toEqual([{ id: `${big.id}-00401`, score: 1 }, { id: `${big.id}-00402`, score: 1 }])
    // any chunk's cosine as the statement computes it; none for a chunk without an embedding of the size, or of zeros
    const query = randomVector()
    const rows = await sql.query<{ id: string; distance: number | null }>(
      `SELECT id, CASE WHEN vector_dims(embedding) = ${D} THEN embedding::vector(${D}) <=> $2::vector(${D}) END AS distance FROM "Chunk" WHERE "datastoreId" = $1`,
      [big.id, toVectorLiteral(query)],
    )
    const cosineOf = (await bothNearest(scope, query, 5)).memory!.cosineOf
    expect(rows).toHaveLength(409)
    for (const row of rows) {
      const expected = row.distance === null || Number.isNaN(Number(row.distance)) ? null : 1 - Number(row.distance)
      if (expected === null) expect(cosineOf(row.id), row.id).toBeNull()
      else expect(cosineOf(row.id)).toBeCloseTo(expected, 6)
    }
    expect(rows.filter(r => cosineOf(r.id) === null)).toHaveLength(7)
  })

  test('hides the datasources and generations the scope hides', { timeout: 60_000 }, async () => {
    const tenant = await createTenant()
    const store = await storeWithVectors(tenant, 3, Array.from({ length: 300 }, () => randomVector()))
    const prisma = await getPrisma()
    await prisma.datasource.update({ where: { id: store.sources[0] }, data: { status: 'error' } })
    await insertVectors(tenant, store.id, [store.sources[1]], Array.from({ length: 50 }, () => randomVector()), 1000, 1)
    await prisma.datasource.update({ where: { id: store.sources[1] }, data: { hiddenGeneration: 1 } })
    const { sql } = await getDatabase()
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] })
    const visible = new Set((await sql.query<{ id: string }>(`SELECT id FROM "Chunk" c WHERE ${scope.clause}`, scope.params)).map(r => r.id))
    expect(visible.size).toBe(200)
    for (let n = 0; n < 10; n++) {
      const { statement, memory } = await bothNearest(scope, randomVector(), 80)
      expect(memory!.ranking).toEqual(closeTo(statement))
      expect(memory!.ranking.every(r => visible.has(r.id))).toBe(true)
    }
  })

  test('a changed embedding gives a new version: until the embeddings are read again, the statement ranks', { timeout: 60_000 }, async () => {
    const tenant = await createTenant()
    const store = await storeWithVectors(tenant, 1, Array.from({ length: 50 }, () => randomVector()))
    const { sql } = await getDatabase()
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] })
    const moved = randomVector()
    expect((await bothNearest(scope, moved, 5)).memory).toBeNull() // never read
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    expect((await bothNearest(scope, moved, 5)).memory!.ranking[0].id).not.toBe(`${store.id}-00007`)
    // the first ranking had the embeddings read in the background: one still running would read the change's version
    await readsSettled()
    await sql.query(`UPDATE "Chunk" SET embedding = $2::vector WHERE id = $1`, [`${store.id}-00007`, toVectorLiteral(moved)])
    expect((await bothNearest(scope, moved, 5)).memory).toBeNull()
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const { memory, statement } = await bothNearest(scope, moved, 5)
    expect(memory!.ranking).toEqual(closeTo(statement))
    expect(memory!.ranking[0]).toEqual({ id: `${store.id}-00007`, score: expect.closeTo(1, 6) })
  })

  test(`a size of which a datastore holds more than ${MAX_SCANNED_FLOATS} values ranks with the statement; its other sizes and its postings stay in memory`, { timeout: 120_000 }, async () => {
    const tenant = await createTenant()
    const large = 1536
    const chunks = Math.ceil(MAX_SCANNED_FLOATS / large) + 1 - 10
    const store = await storeWithVectors(tenant, 1, Array.from({ length: 10 }, () => randomVector()))
    const { sql } = await getDatabase()
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding)
       SELECT $2 || '-L' || n, $1, $2, $3, 100 + n, 'chunk large', 10, array(SELECT random() - 0.5 FROM generate_series(1, ${large}) WHERE n > 0)::real[]::vector
         FROM generate_series(1, $4::int) AS n`,
      [tenant.ctx.organizationId, store.id, store.sources[0], chunks],
    )
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] })
    expect((await bothNearest(scope, randomVector(large), 5)).memory).toBeNull()
    const small = await bothNearest(scope, randomVector(), 5)
    expect(small.memory!.ranking).toEqual(closeTo(small.statement))
    expect(memoryRanking(sql, scope, small.stats, 5)).not.toBeNull()
  })

  test('hybrid search gives the same fragments and scores from memory as with statements', { timeout: 120_000 }, async () => {
    const tenant = await createTenant()
    const topics = ['kettle warranty', 'router password reset', 'oven bread temperature', 'blender ice', 'smoke detector battery', 'coffee grinder burrs']
    const texts = Array.from({ length: 240 }, (_, i) => `${topics[i % topics.length]} note ${i} ${topics[(i * 7) % topics.length]} details`)
    const store = await storeWithVectors(tenant, 2, texts.map(t => embedText(t, D)))
    const { sql } = await getDatabase()
    for (const [i, text] of texts.entries()) await sql.query(`UPDATE "Chunk" SET text = $2 WHERE id = $1`, [`${store.id}-${String(i + 1).padStart(5, '0')}`, text])
    const search = (query: string) => hybridSearch({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id], query, topK: 8 })
    const questions = ['How long is the kettle warranty?', 'reset the router password', 'bread in the oven', 'battery of the smoke detector']
    process.env.SEARCH_MEMORY_CHUNKS = '0'
    const withStatements = await Promise.all(questions.map(search))
    delete process.env.SEARCH_MEMORY_CHUNKS
    await readPostings(sql, tenant.ctx.organizationId, store.id)
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] })
    expect((await bothNearest(scope, embedText(questions[0], D), 5)).memory).not.toBeNull()
    for (const [i, question] of questions.entries()) {
      const fromMemory = await search(question)
      expect(fromMemory.map(f => f.text), question).toEqual(withStatements[i].map(f => f.text))
      expect(fromMemory).toHaveLength(8)
      fromMemory.forEach((f, k) => expect(f.score).toBeCloseTo(withStatements[i][k].score, 3))
    }
  })
})
