// API keys with scopes and resource lists (DESIGN.md §10): what a key may do and see is what it was given; a
// resource outside its lists is a 404 as for an unknown id, an action outside its scopes a 403; an expired key is a
// 401; a key given nothing keeps full access.
import { beforeAll, describe, expect, test } from 'vitest'
import * as agents from '@/app/api/agents/route'
import * as apiKeys from '@/app/api/api-keys/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { getPrisma } from '@/lib/db/client'
import { seedDatastore } from '../helpers/agents'
import { call, expectErrorBody } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'

let owner: TestTenant
let storeA: string
let storeB: string

beforeAll(async () => {
  owner = await createTenant()
  storeA = (await seedDatastore(owner, [{ text: 'The kettle warranty is two years.' }])).datastoreId
  storeB = (await seedDatastore(owner, [{ text: 'The toaster warranty is one year.' }])).datastoreId
})

async function keyWith(body: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: owner.headers, body: { name: 'integration', ...body } })
  expect(res.status, res.text).toBe(201)
  return { authorization: `Bearer ${res.json.secret}` }
}

const query = (id: string, headers: Record<string, string>) =>
  call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers, params: { id }, body: { query: 'warranty' } })

describe('a key limited to reading datastore A', () => {
  let key: Record<string, string>
  beforeAll(async () => {
    key = await keyWith({ scopes: ['datastores:read'], datastoreIds: [storeA] })
  })

  test('queries A, and B is a 404 as if it did not exist', async () => {
    expect((await query(storeA, key)).status).toBe(200)
    const b = await query(storeB, key)
    expect(b.status).toBe(404)
    expectErrorBody(b.json, 'not_found')
  })

  test('lists A only', async () => {
    const list = await call(datastores.GET, '/api/datastores', { headers: key })
    expect(list.json.map((d: { id: string }) => d.id)).toEqual([storeA])
  })

  test('may not upsert into A nor create an agent: 403 naming the scope', async () => {
    const up = await call(upsert.POST, `/api/datastores/upsert/${storeA}`, { method: 'POST', headers: key, params: { datastoreId: storeA }, body: { documents: [{ text: 'More.' }] } })
    expect(up.status).toBe(403)
    expectErrorBody(up.json, 'forbidden')
    expect(up.json.error.details.scope).toBe('datastores:write')
    const agent = await call(agents.POST, '/api/agents', { method: 'POST', headers: key, body: { name: 'x' } })
    expect(agent.status).toBe(403)
  })

  test('is shown with its scopes and lists in the list of keys', async () => {
    const list = await call(apiKeys.GET, '/api/api-keys', { headers: owner.headers })
    const shown = list.json.find((k: { scopes: string[] }) => k.scopes.length === 1)
    expect(shown).toMatchObject({ scopes: ['datastores:read'], datastoreIds: [storeA], agentIds: [], expiresAt: null })
  })
})

describe('keys', () => {
  test('an expired key is refused with 401', async () => {
    const key = await keyWith({ expiresAt: new Date(Date.now() + 60_000).toISOString() })
    expect((await query(storeA, key)).status).toBe(200)
    const prisma = await getPrisma()
    await prisma.apiKey.updateMany({ where: { organizationId: owner.ctx.organizationId, expiresAt: { not: null } }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const res = await query(storeA, key)
    expect(res.status).toBe(401)
  })

  test('a key given no scopes keeps full access, as keys made before scopes', async () => {
    const key = await keyWith({})
    expect((await call(agents.POST, '/api/agents', { method: 'POST', headers: key, body: { name: 'x' } })).status).toBe(201)
    expect((await query(storeB, key)).status).toBe(200)
  })

  test("a key cannot be limited to another organization's datastore, nor given an unknown scope or a past expiry", async () => {
    const stranger = await createTenant()
    const { datastoreId } = await seedDatastore(stranger, [{ text: 'Theirs.' }])
    for (const body of [{ datastoreIds: [datastoreId] }, { scopes: ['everything'] }, { expiresAt: '2000-01-01T00:00:00Z' }]) {
      const res = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: owner.headers, body: { name: 'x', ...body } })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expectErrorBody(res.json, 'invalid_request')
    }
  })
})
