// Issue 13.4: filters.metadata restricts the candidates, in SQL, before ranking; bad filter bodies are 400.
import { describe, expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as databerryQuery from '@/app/api/query/[datastoreId]/route'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { newId } from '@/lib/db/ids'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { upsertedDatastore } from './helpers/retrieval'
import { createTenant, type TestTenant } from './helpers/tenants'

useFakeModel()

const DOCS = [
  // the best match for the questions below, by far: it is the one the filters must keep out
  { text: 'Descaling the Zephyr kettle: fill it with vinegar and water, boil, and rinse; descale the kettle monthly.', name: 'zephyr-descale.md', metadata: { product: 'zephyr', lang: 'en', year: 2024, tags: ['kettle', 'care'] } },
  { text: 'The Aurora kettle has a filter you can rinse under the tap.', name: 'aurora-filter.md', metadata: { product: 'aurora', lang: 'en', year: 2023, tags: ['kettle'] } },
  { text: 'Détartrer la bouilloire Zephyr : vinaigre et eau, faire bouillir, rincer.', name: 'zephyr-fr.md', metadata: { product: 'zephyr', lang: 'fr', year: 2024, archived: true } },
  { text: 'The Boreal blender jar is dishwasher safe.', name: 'boreal.md', metadata: { product: 'boreal', lang: 'en', year: 2024 } },
]

const catalogue = (tenant: TestTenant) => upsertedDatastore(tenant, DOCS, 'Catalogue')

const query = (tenant: TestTenant, id: string, body: Record<string, unknown>) =>
  call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers: tenant.headers, params: { id }, body })
const names = (fragments: { datasource_name: string }[]) => fragments.map(f => f.datasource_name)

describe('metadata filters', () => {
  test('a filtered-out document never appears, even when it would rank first', async () => {
    const tenant = await createTenant()
    const id = await catalogue(tenant)
    const question = 'how do I descale the Zephyr kettle with vinegar?'
    const open = await query(tenant, id, { query: question, topK: 1 })
    expect(names(open.json)).toEqual(['zephyr-descale.md'])

    const filtered = await query(tenant, id, { query: question, topK: 1, filters: { metadata: { product: 'aurora' } } })
    expect(filtered.status).toBe(200)
    // topK 1 still gets a fragment: the filter ran before ranking, not on the ranked list
    expect(names(filtered.json)).toEqual(['aurora-filter.md'])
  })

  test('a list matches any of its values, every key must match, and numbers and booleans compare as JSON', async () => {
    const tenant = await createTenant()
    const id = await catalogue(tenant)
    const ask = async (metadata: Record<string, unknown>) => names((await query(tenant, id, { query: 'kettle blender vinegar bouilloire', topK: 10, filters: { metadata } })).json).sort()
    expect(await ask({ product: ['aurora', 'boreal'] })).toEqual(['aurora-filter.md', 'boreal.md'])
    expect(await ask({ product: 'zephyr', lang: 'fr' })).toEqual(['zephyr-fr.md'])
    expect(await ask({ year: 2023 })).toEqual(['aurora-filter.md'])
    expect(await ask({ year: '2023' })).toEqual([])
    expect(await ask({ archived: true })).toEqual(['zephyr-fr.md'])
    // a metadata value that is a list matches when it holds the value
    expect(await ask({ tags: 'care' })).toEqual(['zephyr-descale.md'])
    expect(await ask({ missing: 'x' })).toEqual([])
  })

  test('a chunk\'s own metadata (a PDF page) filters too', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const { sql } = await getDatabase()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'Manual' } })
    const ds = await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: 'manual.pdf', status: 'synched' } })
    for (const [page, text] of [[1, 'Kettle safety: never immerse the kettle in water.'], [2, 'Kettle descaling: use vinegar once a month.']] as const) {
      await sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata) VALUES ($1, $2, $3, $4, $5, $6, 10, $7)`,
        [newId(), tenant.ctx.organizationId, store.id, ds.id, page, text, JSON.stringify({ page })],
      )
    }
    const res = await query(tenant, store.id, { query: 'kettle', topK: 5, filters: { metadata: { page: 2 } } })
    expect(res.json.map((f: { metadata: { page: number } }) => f.metadata.page)).toEqual([2])
  })

  test('an agent query applies filters.metadata to what it retrieves', async () => {
    const tenant = await createTenant()
    const id = await catalogue(tenant)
    const agent = await createAgentVia(tenant, { datastoreIds: [id] })
    const res = await queryAgentVia(agent.id, { query: 'how do I descale the Zephyr kettle?', filters: { metadata: { lang: 'fr' } } }, tenant.headers)
    expect(res.status).toBe(200)
    expect(names(res.json.sources)).toEqual(['zephyr-fr.md'])
  })

  test('Databerry\'s query path takes the same filters', async () => {
    const tenant = await createTenant()
    const id = await catalogue(tenant)
    const res = await call(databerryQuery.POST, `/api/query/${id}`, {
      method: 'POST', headers: tenant.headers, params: { datastoreId: id },
      body: { query: 'descale the Zephyr kettle', filters: { metadata: { product: 'boreal' } } },
    })
    expect(res.status).toBe(200)
    expect(names(res.json.results)).toEqual(['boreal.md'])
  })

  test.each([
    ['a string instead of an object', 'zephyr'],
    ['an object value', { product: { $ne: 'zephyr' } }],
    ['null as a value', { product: null }],
    ['an empty list', { product: [] }],
    ['a list of objects', { product: [{ a: 1 }] }],
    ['an empty key', { '': 'x' }],
  ])('a bad metadata filter (%s) is a 400 with the error body, on the datastore and the agent query', async (_, metadata) => {
    const tenant = await createTenant()
    const id = await catalogue(tenant)
    const res = await query(tenant, id, { query: 'kettle', filters: { metadata } })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
    const agent = await createAgentVia(tenant, { datastoreIds: [id] })
    const asked = await queryAgentVia(agent.id, { query: 'kettle', filters: { metadata } }, tenant.headers)
    expect(asked.status).toBe(400)
    expectErrorBody(asked.json, 'invalid_request')
  })
})
