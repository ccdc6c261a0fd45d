// The vector index of each embedding size, and the vector ranking it serves (lib/db/vector-index.ts,
// lib/search/hybrid-search.ts): small embeddings are indexed whole, large ones by their binary quantization.
import { describe, expect, test } from 'vitest'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { toVectorBinary } from '@/lib/db/vector-binary'
import { BINARY_INDEX_LINKS, ensureVectorIndex, FULL_PRECISION_MAX_DIMENSIONS, vectorIndexDefinition, vectorIndexName } from '@/lib/db/vector-index'
import { newId } from '@/lib/db/ids'
import { vectorRankingStatement, vectorSearch } from '@/lib/search/hybrid-search'
import { scopeOf } from '@/lib/search/scope'
import { createTenant } from '../helpers/tenants'

/** Dense unit vectors from a seeded PRNG, as embedding models give (every dimension used). */
function vectors(count: number, dimensions: number, seed: number): number[][] {
  let state = seed
  const next = () => ((state = (state * 48271) % 2147483647) / 2147483647) * 2 - 1
  return Array.from({ length: count }, () => {
    const v = Array.from({ length: dimensions }, () => next() + next() + next())
    const norm = Math.hypot(...v)
    return v.map(x => x / norm)
  })
}

/** A datastore of one datasource whose chunks have these embeddings. */
async function storeWith(embeddings: number[][]) {
  const { ctx } = await createTenant()
  const prisma = await getPrisma()
  const { sql } = await getDatabase()
  const store = await prisma.datastore.create({ data: { organizationId: ctx.organizationId, name: 'vectors' } })
  const source = await prisma.datasource.create({ data: { organizationId: ctx.organizationId, datastoreId: store.id, type: 'text', name: 'd', status: 'synched' } })
  // as the worker writes them: many rows a statement
  for (let start = 0; start < embeddings.length; start += 500) {
    const batch = embeddings.slice(start, start + 500)
    const params: unknown[] = [ctx.organizationId, store.id, source.id]
    const values = batch.map((embedding, i) => {
      params.push(newId(), start + i, toVectorBinary(embedding))
      return `($${params.length - 2}, $1, $2, $3, $${params.length - 1}, 'text', 1, $${params.length}::vector)`
    })
    await sql.query(`INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ${values.join(', ')}`, params)
  }
  return { organizationId: ctx.organizationId, datastoreIds: [store.id] }
}

/** The exact nearest chunks, by a scan of every one. */
async function exactNearest(sql: SqlDriver, datastoreId: string, embedding: number[], k: number): Promise<string[]> {
  const d = embedding.length
  const rows = await sql.queryWithSettings<{ id: string }>(
    'SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off',
    `SELECT id FROM "Chunk" WHERE "datastoreId" = $1 ORDER BY "embedding"::vector(${d}) <=> $2::vector(${d}), id COLLATE "C" LIMIT ${k}`,
    [datastoreId, toVectorBinary(embedding)],
  )
  return rows.map(r => r.id)
}

const indexDefinition = async (sql: Pick<SqlDriver, 'query'>, dimensions: number) =>
  (await sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1`, [vectorIndexName(dimensions)]))[0]?.indexdef

describe('the vector index of an embedding size', () => {
  test(`embeddings of up to ${FULL_PRECISION_MAX_DIMENSIONS} dimensions are indexed whole, larger ones by their binary quantization`, async () => {
    const { sql } = await getDatabase()
    await ensureVectorIndex(sql, 64)
    await ensureVectorIndex(sql, FULL_PRECISION_MAX_DIMENSIONS + 44)
    const small = await indexDefinition(sql, 64)
    for (const part of ['hnsw', '(embedding)::vector(64)', 'vector_cosine_ops', 'WHERE (vector_dims(embedding) = 64)']) expect(small).toContain(part)
    const large = await indexDefinition(sql, FULL_PRECISION_MAX_DIMENSIONS + 44)
    for (const part of ['hnsw', `(binary_quantize(embedding))::bit(${FULL_PRECISION_MAX_DIMENSIONS + 44})`, 'bit_hamming_ops', `m='${BINARY_INDEX_LINKS}'`]) expect(large).toContain(part)
  })

  test(`the migrations' 1536-dimension index is the one the code defines, with ${BINARY_INDEX_LINKS} links a node`, async () => {
    const { sql } = await getDatabase()
    const migrated = await indexDefinition(sql, 1536)
    expect(migrated).toContain(`WITH (m='${BINARY_INDEX_LINKS}')`)
    // built by the code's definition in a transaction rolled back, so the migrated index stays
    let defined: string | undefined
    const rollback = new Error('rolled back')
    await expect(sql.transaction(async tx => {
      await tx.exec(`DROP INDEX "${vectorIndexName(1536)}"; ${vectorIndexDefinition(1536)}`)
      defined = await indexDefinition(tx, 1536)
      throw rollback
    })).rejects.toBe(rollback)
    expect(defined).toBe(migrated)
    expect(await indexDefinition(sql, 1536)).toBe(migrated)
  })

  test('an index of the other kind under the size\'s name (an earlier version\'s) is rebuilt at the next start', async () => {
    const { sql } = await getDatabase()
    await sql.exec(`DROP INDEX IF EXISTS "${vectorIndexName(48)}";
      CREATE INDEX "${vectorIndexName(48)}" ON "Chunk" USING hnsw ((binary_quantize("embedding")::bit(48)) bit_hamming_ops) WHERE vector_dims("embedding") = 48`)
    // a new process: nothing of this size ensured yet
    await ensureVectorIndex({ ...sql }, 48)
    expect(await indexDefinition(sql, 48)).toContain('vector_cosine_ops')
  })

  test('the ranking of 64-dimension embeddings walks their index and finds the exact nearest', async () => {
    const { sql } = await getDatabase()
    const scope = await storeWith(vectors(4000, 64, 7))
    let found = 0
    for (const query of vectors(10, 64, 99)) {
      const [approx, exact] = [await vectorSearch(scope, query, 10), await exactNearest(sql, scope.datastoreIds[0], query, 10)]
      found += approx.filter(id => exact.includes(id)).length
    }
    // the binary quantization of 64 dimensions found 82 of these 100 (0.82)
    expect(found / 100).toBeGreaterThanOrEqual(0.95)
    // the statement repeats the index's expression and predicate: with statistics, the planner walks the index
    await sql.exec('ANALYZE "Chunk"')
    const statement = vectorRankingStatement(scopeOf(scope), 64, 20, false)
    const plan = await sql.queryWithSettings<{ 'QUERY PLAN': string }>(`SET LOCAL enable_seqscan = off; ${statement.settings}`, `EXPLAIN ${statement.text}`, [...scopeOf(scope).params, toVectorBinary(vectors(1, 64, 5)[0])])
    expect(plan.map(r => r['QUERY PLAN']).join('\n')).toContain(vectorIndexName(64))
  })

  test('the ranking of larger embeddings re-ranks the binary index\'s candidates by exact cosine distance', async () => {
    const { sql } = await getDatabase()
    const d = FULL_PRECISION_MAX_DIMENSIONS + 44
    const scope = await storeWith(vectors(80, d, 3))
    for (const query of vectors(3, d, 11)) {
      expect(await vectorSearch(scope, query, 10)).toEqual(await exactNearest(sql, scope.datastoreIds[0], query, 10))
    }
    const statement = vectorRankingStatement(scopeOf(scope), d, 20, false)
    expect(statement.text).toContain(`binary_quantize(c."embedding")::bit(${d})`)
  })
})
