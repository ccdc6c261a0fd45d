// hybridSearch over chunks written directly (as the worker writes them), with the fake embeddings server.
import { describe, expect, test } from 'vitest'
import { embedText } from '@/e2e/support/fake-openai-server.mjs'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { newId } from '@/lib/db/ids'
import { lexemeQuery } from '@/lib/search/fulltext'
import { fuseRankings } from '@/lib/search/fusion'
import { hybridSearch, vectorSearch } from '@/lib/search/hybrid-search'
import { toVectorLiteral } from '@/lib/embeddings/provider'
import { useFakeEmbeddings } from './helpers/fake-embeddings'
import { createTenant, type TestTenant } from './helpers/tenants'

const DIMENSIONS = 64
const embeddings = useFakeEmbeddings(DIMENSIONS)

interface Doc {
  text: string
  name?: string
  status?: 'synched' | 'error' | 'running' | 'usage_limit_reached' | 'unsynched'
  customId?: string
  metadata?: Record<string, unknown>
  type?: 'text' | 'web_page'
  config?: Record<string, unknown>
  embed?: boolean
  /** Its first synchronisation is not over (else it was synched once). */
  neverSynched?: boolean
}

/** A datastore whose datasources each hold one chunk, written as the worker would. */
async function storeWith(tenant: TestTenant, docs: Doc[]) {
  const prisma = await getPrisma()
  const { sql } = await getDatabase()
  const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'kb' } })
  const ids: string[] = []
  for (const doc of docs) {
    const ds = await prisma.datasource.create({
      data: {
        organizationId: tenant.ctx.organizationId,
        datastoreId: store.id,
        type: doc.type ?? 'text',
        name: doc.name ?? doc.text.slice(0, 20),
        status: doc.status ?? 'synched',
        customId: doc.customId,
        metadata: doc.metadata as object | undefined,
        config: (doc.config ?? {}) as object,
        nbChunks: 1,
        lastSynch: doc.neverSynched ? null : new Date(),
      },
    })
    await sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding)
       VALUES ($1, $2, $3, $4, 0, $5, 10, $6, $7, $8::vector)`,
      [newId(), tenant.ctx.organizationId, store.id, ds.id, doc.text, JSON.stringify({ position: 0 }), doc.customId ?? null,
        doc.embed === false ? null : toVectorLiteral(embedText(doc.text, DIMENSIONS))],
    )
    ids.push(ds.id)
  }
  return { store, ids }
}

const search = (tenant: TestTenant, datastoreIds: string[], query: string, extra: { topK?: number; filters?: any } = {}) =>
  hybridSearch({ organizationId: tenant.ctx.organizationId, datastoreIds, query, topK: extra.topK ?? 5, filters: extra.filters })

describe('hybrid search', () => {
  test('a natural-language question finds the chunk sharing its words, first', async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [
      { text: 'The kettle warranty lasts two years from the date of purchase.' },
      { text: 'Our office is closed on public holidays.' },
      { text: 'Shipping to Europe takes five working days.' },
    ])
    const fragments = await search(tenant, [store.id], 'How long is the warranty of the kettle?')
    expect(fragments[0].datasource_id).toBe(ids[0])
    // the relevance of lib/search/relevance.ts: comparable across queries, in (0, 1]
    expect(fragments[0].score).toBeGreaterThan(0.3)
    expect(fragments[0].score).toBeLessThanOrEqual(1)
    for (let i = 1; i < fragments.length; i++) expect(fragments[i].score).toBeLessThanOrEqual(fragments[i - 1].score)
  })

  test('with embeddings, a chunk that full-text search cannot see is still found by the vector ranking', async () => {
    const tenant = await createTenant()
    // only stop words: the English tsvector of this text and the tsquery of the question are empty
    const { store } = await storeWith(tenant, [{ text: 'where were they when it was over' }, { text: 'tractor harvest field' }])
    const fragments = await search(tenant, [store.id], 'where were they')
    expect(fragments[0].text).toBe('where were they when it was over')
    // found by the vector ranking only (no word of the question is indexed): half its cosine similarity
    const [q, t] = [embedText('where were they', DIMENSIONS), embedText('where were they when it was over', DIMENSIONS)]
    const cosine = q.reduce((sum: number, x: number, i: number) => sum + x * t[i], 0)
    expect(fragments[0].score).toBeCloseTo(0.5 * cosine, 3)
  })

  test('datasource_ids and custom_ids restrict the candidates before ranking', async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [
      { text: 'Refund policy: refunds within 30 days.', customId: 'tenant-a' },
      { text: 'Refund policy for tenant b: refunds within 14 days.', customId: 'tenant-b' },
      { text: 'Unrelated text about bicycles.', customId: 'tenant-b' },
    ])
    const byCustom = await search(tenant, [store.id], 'refund policy', { filters: { custom_ids: ['tenant-a'] } })
    expect(byCustom.map(f => f.datasource_id)).toEqual([ids[0]])
    expect(byCustom[0].custom_id).toBe('tenant-a')
    const byDatasource = await search(tenant, [store.id], 'refund policy', { filters: { datasource_ids: [ids[1], ids[2]] } })
    expect(new Set(byDatasource.map(f => f.datasource_id))).toEqual(new Set([ids[1], ids[2]]))
    expect(byDatasource[0].datasource_id).toBe(ids[1])
    const none = await search(tenant, [store.id], 'refund policy', { filters: { custom_ids: [] } })
    expect(none).toEqual([])
  })

  test('content of a failed or never-synched datasource is not searched; a running re-sync keeps its chunks visible', async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [
      { text: 'Alpha manual, failed sync', status: 'error' },
      { text: 'Alpha manual, never synched', status: 'unsynched' },
      { text: 'Alpha manual, being re-synched', status: 'running' },
      { text: 'Alpha manual, over the usage limit', status: 'usage_limit_reached' },
      // a first synchronisation's chunks as they are written in steps, or left by one interrupted
      { text: 'Alpha manual, first synchronisation being written', status: 'running', neverSynched: true },
      { text: 'Alpha manual, first synchronisation over the usage limit', status: 'usage_limit_reached', neverSynched: true },
    ])
    const fragments = await search(tenant, [store.id], 'alpha manual', { topK: 10 })
    expect(new Set(fragments.map(f => f.datasource_id))).toEqual(new Set([ids[2], ids[3]]))
  })

  test('only the given datastores of the given organization are searched', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const first = await storeWith(a, [{ text: 'Penguins live in Antarctica.' }])
    const second = await storeWith(a, [{ text: 'Penguins cannot fly.' }])
    const other = await storeWith(b, [{ text: 'Penguins are birds.' }])
    expect((await search(a, [first.store.id], 'penguins')).map(f => f.datasource_id)).toEqual(first.ids)
    expect(new Set((await search(a, [first.store.id, second.store.id], 'penguins')).map(f => f.datasource_id))).toEqual(
      new Set([...first.ids, ...second.ids]),
    )
    // another organization's datastore id, passed by mistake, yields nothing
    expect(await search(a, [other.store.id], 'penguins')).toEqual([])
  })

  test("the source is a web page's URL, else the document's metadata.source, else the datasource's name", async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [
      { text: 'Lighthouse page text', type: 'web_page', config: { source_url: 'https://example.com/lighthouse' }, name: 'Lighthouse' },
      { text: 'Lighthouse document text', metadata: { source: 'https://docs.example.com/l.pdf', author: 'Ann' }, name: 'doc' },
      { text: 'Lighthouse note text', name: 'Plain note' },
    ])
    const fragments = await search(tenant, [store.id], 'lighthouse text', { topK: 3 })
    const bySource = Object.fromEntries(fragments.map(f => [f.datasource_id, f]))
    expect(bySource[ids[0]].source).toBe('https://example.com/lighthouse')
    expect(bySource[ids[1]].source).toBe('https://docs.example.com/l.pdf')
    expect(bySource[ids[1]].metadata).toMatchObject({ author: 'Ann', position: 0 })
    expect(bySource[ids[2]].source).toBe('Plain note')
    expect(bySource[ids[2]].datasource_name).toBe('Plain note')
  })

  test('quotes, backslashes and tsquery operators in a query or a text are words, never syntax', async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [{ text: "O'Brien's path is C:\\temp\\logs & a|b <-> !x (y) 'z'" }])
    for (const query of ["O'Brien", 'C:\\temp\\logs', "& | ! <-> ( ) ' : * \\", "o''brien's"]) {
      const fragments = await search(tenant, [store.id], query)
      if (query !== "& | ! <-> ( ) ' : * \\") expect(fragments.map(f => f.datasource_id), query).toEqual(ids)
    }
  })

  test('topK bounds the number of fragments', async () => {
    const tenant = await createTenant()
    const { store } = await storeWith(tenant, Array.from({ length: 12 }, (_, i) => ({ text: `Lamp model ${i} spare parts` })))
    expect(await search(tenant, [store.id], 'lamp spare parts', { topK: 3 })).toHaveLength(3)
    expect(await search(tenant, [store.id], 'lamp spare parts', { topK: 100 })).toHaveLength(12)
  })

  test('when the embeddings provider fails, the search still answers by words', async () => {
    const tenant = await createTenant()
    const { store, ids } = await storeWith(tenant, [{ text: 'Printer toner replacement guide' }])
    embeddings.server().setBehaviour({ embeddingsMode: 'error' })
    try {
      const fragments = await search(tenant, [store.id], 'toner')
      expect(fragments.map(f => f.datasource_id)).toEqual(ids)
    } finally {
      embeddings.server().reset()
    }
  })

  test('the 1536-dimension index of the migrations is binary-quantized too', async () => {
    const { sql } = await getDatabase()
    const [index] = await sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'Chunk_embedding_1536_idx'`)
    for (const part of ['hnsw', '(binary_quantize(embedding))::bit(1536)', 'bit_hamming_ops', "WITH (m='12')", 'WHERE (vector_dims(embedding) = 1536)']) {
      expect(index.indexdef).toContain(part)
    }
  })

  test('the vector ranking orders its candidates by exact cosine distance', async () => {
    const tenant = await createTenant()
    const docs = Array.from({ length: 60 }, (_, i) => ({ text: `pump valve ${'seal '.repeat(i % 7)}${'gasket '.repeat(i % 5)}model ${i}` }))
    const { store } = await storeWith(tenant, docs)
    const embedding = embedText('pump seal seal seal gasket', DIMENSIONS)
    const approx = await vectorSearch({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, embedding, 10)
    const { sql } = await getDatabase()
    const exact = await sql.query<{ id: string }>(
      `SELECT d.id FROM "Chunk" c JOIN "Datasource" d ON d.id = c."datasourceId" WHERE c."datastoreId" = $1
       ORDER BY c."embedding"::vector(${DIMENSIONS}) <=> $2::vector(${DIMENSIONS}), c.id LIMIT 10`,
      [store.id, toVectorLiteral(embedding)],
    )
    const chunkToDs = await sql.query<{ id: string; ds: string }>(`SELECT id, "datasourceId" AS ds FROM "Chunk" WHERE id = ANY($1::text[])`, [approx])
    const byId = new Map(chunkToDs.map(r => [r.id, r.ds]))
    expect(approx.map(id => byId.get(id))).toEqual(exact.map(r => r.id))
  })
})

describe('ranking helpers', () => {
  test('lexemes are quoted so that none is tsquery syntax', () => {
    expect(lexemeQuery(["o'brien", 'a&b', 'x'], '|')).toBe("'o''brien' | 'a&b' | 'x'")
  })

  test('a word found in most chunks still ranks: the chunk with both words is first', async () => {
    const tenant = await createTenant()
    const docs = Array.from({ length: 30 }, (_, i) => ({ text: `Product manual page ${i}: product care and product storage.`, embed: false }))
    docs.push({ text: 'Product recall notice for the blender.', embed: false })
    const { store, ids } = await storeWith(tenant, docs)
    const { fulltextRanking } = await import('@/lib/search/fulltext')
    const { scopeOf } = await import('@/lib/search/scope')
    const { sql } = await getDatabase()
    const scope = scopeOf({ organizationId: tenant.ctx.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
    const ranked = await fulltextRanking(sql, scope, 'product blender', 40)
    expect(ranked).toHaveLength(31)
    const chunkOf = await sql.query<{ id: string; ds: string }>(`SELECT id, "datasourceId" AS ds FROM "Chunk" WHERE id = $1`, [ranked[0].id])
    expect(chunkOf[0].ds).toBe(ids[30])
  })

  test('fusion scores first place in both rankings as 1, and one ranking alone as its weight', () => {
    const text = [{ id: 'a', score: 4 }, { id: 'b', score: 2 }]
    const vector = [{ id: 'b', score: 0.9 }, { id: 'a', score: 0.5 }, { id: 'd', score: 0.1 }]
    expect(fuseRankings([{ id: 'x', score: 3 }], [{ id: 'x', score: 0.7 }], 1)[0].score).toBe(1)
    const fused = fuseRankings(text, vector, 4)
    // a: 0.5 · 1 + 0.5 · 0.5; b: 0.5 · 0.5 + 0.5 · 1; d: 0 + 0.5 · 0
    expect(fused).toEqual([{ id: 'a', score: 0.75 }, { id: 'b', score: 0.75 }, { id: 'd', score: 0 }])
    expect(fuseRankings(text, null, 2)).toEqual([{ id: 'a', score: 1 }, { id: 'b', score: 0.5 }])
  })
})
