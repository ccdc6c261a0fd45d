// Connections (issue 21, issue 26): an organization's Notion token, checked with Notion when saved, stored
// encrypted, never answered; another organization's connection is a 404 everywhere.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as connectionRoute from '@/app/api/connections/[id]/route'
import * as connectionsRoute from '@/app/api/connections/route'
import { decryptSecret } from '@/lib/crypto/secrets'
import { getPrisma } from '@/lib/db/client'
import { startFakeNotion, type FakeNotion } from '../helpers/fake-notion'
import { call, expectErrorBody } from '../helpers/http'
import { addNotion, connect } from '../helpers/notion-api'
import { createTenant } from '../helpers/tenants'
import { createStore } from '../fixtures/ingest'

let notion: FakeNotion
beforeAll(async () => {
  notion = await startFakeNotion()
})
afterAll(() => notion.close())
beforeEach(() => {
  process.env.NOTION_API_URL = notion.url
  process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
})
afterEach(() => {
  delete process.env.NOTION_API_URL
  delete process.env.CRAWLER_ALLOW_PRIVATE_HOSTS
})

const byId = (id: string) => ({ params: { id } })

describe('a connection', () => {
  test('is saved once Notion accepts its token, which is stored encrypted and never answered', async () => {
    const tenant = await createTenant()
    notion.requests.length = 0
    const created = await connect(tenant.headers, notion.token)
    expect(notion.requests).toEqual([{ method: 'GET', path: '/v1/users/me' }])
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'id', 'name', 'provider', 'secretPrefix', 'updatedAt'])
    const row = await (await getPrisma()).connection.findUniqueOrThrow({ where: { id: created.id } })
    expect(row.secretCiphertext).not.toContain(notion.token)
    expect(decryptSecret(row.secretCiphertext)).toBe(notion.token)
    const listed = await call(connectionsRoute.GET, '/api/connections', { headers: tenant.headers })
    expect(listed.json).toEqual([created])
    expect(listed.text).not.toContain(notion.token)
    // the audit log names the change and the connection, never the token
    const audit = await (await getPrisma()).auditEntry.findMany({ where: { organizationId: tenant.ctx.organizationId, targetId: created.id } })
    expect(audit.map(a => a.action)).toEqual(['connection.created'])
    expect(JSON.stringify(audit)).not.toContain(notion.token)
  })

  test('a token Notion refuses is a 400 saying so, and nothing is saved', async () => {
    const tenant = await createTenant()
    const res = await call(connectionsRoute.POST, '/api/connections', { method: 'POST', headers: tenant.headers, body: { name: 'Docs', token: 'ntn_not_the_right_token_000' } })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
    expect(res.json.error.message).toContain('Notion refused this token (401)')
    expect(res.text).not.toContain('ntn_not_the_right_token_000')
    expect((await call(connectionsRoute.GET, '/api/connections', { headers: tenant.headers })).json).toEqual([])
  })

  test('bad input is a 400 naming the field', async () => {
    const tenant = await createTenant()
    for (const body of [{ token: notion.token }, { name: 'Docs' }, { name: 'Docs', token: 'short' }, { name: 'Docs', token: notion.token, provider: 'dropbox' }]) {
      const res = await call(connectionsRoute.POST, '/api/connections', { method: 'POST', headers: tenant.headers, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expectErrorBody(res.json, 'invalid_request')
    }
  })

  test('is renamed, gets a new token checked like the first, and is deleted', async () => {
    const tenant = await createTenant()
    const created = await connect(tenant.headers, notion.token)
    const renamed = await call(connectionRoute.PATCH, `/api/connections/${created.id}`, { method: 'PATCH', headers: tenant.headers, body: { name: 'Help center' }, ...byId(created.id) })
    expect(renamed.json).toMatchObject({ id: created.id, name: 'Help center' })
    const refused = await call(connectionRoute.PATCH, `/api/connections/${created.id}`, { method: 'PATCH', headers: tenant.headers, body: { token: 'ntn_wrong_wrong_wrong' }, ...byId(created.id) })
    expect(refused.status).toBe(400)
    const deleted = await call(connectionRoute.DELETE, `/api/connections/${created.id}`, { method: 'DELETE', headers: tenant.headers, ...byId(created.id) })
    expect(deleted.status).toBe(200)
    expect((await call(connectionRoute.GET, `/api/connections/${created.id}`, { headers: tenant.headers, ...byId(created.id) })).status).toBe(404)
  })

  test("another organization's connection is a 404, to read, change, delete or name in a datasource", async () => {
    const owner = await createTenant()
    const created = await connect(owner.headers, notion.token)
    const other = await createStore()
    for (const [handler, method, body] of [
      [connectionRoute.GET, 'GET', undefined],
      [connectionRoute.PATCH, 'PATCH', { name: 'Mine now' }],
      [connectionRoute.DELETE, 'DELETE', undefined],
    ] as const) {
      const res = await call(handler, `/api/connections/${created.id}`, { method, headers: other.headers, body, ...byId(created.id) })
      expect(res.status, method).toBe(404)
    }
    const ds = await addNotion(other.headers, other.store.id, { connectionId: created.id, rootId: 'a'.repeat(32), rootType: 'page' })
    expect(ds.status).toBe(404)
    expect(ds.json.error.message).toBe('Notion connection not found')
  })

  test('a notion datasource’s root must be a Notion id (its address’s 32 hexadecimal digits)', async () => {
    const store = await createStore()
    const connection = await connect(store.headers, notion.token)
    const bad = await addNotion(store.headers, store.store.id, { connectionId: connection.id, rootId: 'not-an-id', rootType: 'page' })
    expect(bad.status).toBe(400)
    const dashed = await addNotion(store.headers, store.store.id, { connectionId: connection.id, rootId: '59833787-2cf9-4fdf-8782-e53db20768a5', rootType: 'page' })
    expect(dashed.status).toBe(201)
    expect(dashed.json.config).toEqual({ connectionId: connection.id, rootId: '598337872cf94fdf8782e53db20768a5', rootType: 'page' })
  })
})
