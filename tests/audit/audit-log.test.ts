// The audit log (DESIGN.md §10): every change leaves an entry naming who (the user's email or the key's name), what
// (datastore.created…), on what, from where and in which request; admins read, filter and export it; others may not.
import { encode } from 'next-auth/jwt'
import { beforeAll, describe, expect, test } from 'vitest'
import * as apiKeys from '@/app/api/api-keys/route'
import * as auditExport from '@/app/api/audit-log/export/route'
import * as auditLog from '@/app/api/audit-log/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastores from '@/app/api/datastores/route'
import { auditAction } from '@/lib/audit/action'
import { pruneAudit } from '@/lib/audit/record'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { call } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'

let owner: TestTenant

async function member(role: Role, email: string): Promise<Record<string, string>> {
  const prisma = await getPrisma()
  const user = await prisma.user.create({ data: { email, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId: owner.ctx.organizationId, userId: user.id, role } })
  const token = await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET! })
  return { cookie: `next-auth.session-token=${token}`, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }
}

const entries = async (query = '') => (await call(auditLog.GET, `/api/audit-log${query}`, { headers: owner.headers })).json.items

beforeAll(async () => {
  owner = await createTenant()
})

describe('the audit log', () => {
  test("an editor's datastore creation, rename and deletion are recorded with the editor's email as actor", async () => {
    const editor = await member('editor', `editor-${Date.now()}@example.com`)
    const created = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: { ...editor, 'x-request-id': 'audit-req-0001' }, body: { name: 'Manuals' } })
    expect(created.status).toBe(201)
    const id = created.json.id
    await call(datastoreItem.PATCH, `/api/datastores/${id}`, { method: 'PATCH', headers: editor, params: { id }, body: { name: 'Manuals v2' } })
    await call(datastoreItem.DELETE, `/api/datastores/${id}`, { method: 'DELETE', headers: editor, params: { id } })
    const items = await entries('?action=datastore.')
    expect(items.map((e: { action: string }) => e.action).slice(0, 3)).toEqual(['datastore.deleted', 'datastore.updated', 'datastore.created'])
    const creation = items[2]
    expect(creation.actor).toMatchObject({ type: 'user', label: expect.stringMatching(/^editor-\d+@example\.com$/) })
    expect(creation.target).toEqual({ type: 'datastore', id, name: 'Manuals' })
    expect(creation.requestId).toBe('audit-req-0001')
    expect(creation.clientAddress).toEqual(expect.any(String))
  })

  test("a key's creation is recorded under the key that made it; queries and reads leave no entry", async () => {
    const made = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: owner.headers, body: { name: 'zapier' } })
    const id = (await call(datastores.POST, '/api/datastores', { method: 'POST', headers: owner.headers, body: { name: 'Docs' } })).json.id
    const before = (await entries()).length
    await call(datastores.GET, '/api/datastores', { headers: owner.headers })
    await call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers: owner.headers, params: { id }, body: { query: 'anything' } })
    expect((await entries()).length).toBe(before)
    const [entry] = await entries('?action=api_key.created')
    expect(entry).toMatchObject({ action: 'api_key.created', actor: { type: 'api_key' }, target: { type: 'api_key', id: made.json.id, name: 'zapier' } })
  })

  test('filters by actor and time, and exports CSV with formulas defused', async () => {
    const editorEmail = (await entries('?action=datastore.created')).at(-1).actor.label
    const byEditor = await entries(`?actor=${encodeURIComponent(editorEmail)}`)
    expect(byEditor.length).toBeGreaterThanOrEqual(3)
    expect(byEditor.every((e: { actor: { label: string } }) => e.actor.label === editorEmail)).toBe(true)
    expect(await entries(`?to=2000-01-01T00:00:00Z`)).toEqual([])
    await call(datastores.POST, '/api/datastores', { method: 'POST', headers: owner.headers, body: { name: '=HYPERLINK("http://evil.example")' } })
    const csv = await call(auditExport.GET, '/api/audit-log/export', { headers: owner.headers })
    expect(csv.headers.get('content-type')).toContain('text/csv')
    expect(csv.text.split('\r\n')[0]).toBe('time,actor_type,actor,action,target_type,target_id,target_name,client_address,request_id')
    expect(csv.text).toContain('datastore.created')
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.example"")"`)
  })

  test('is for admins: a viewer and an editor reading it get 403', async () => {
    for (const role of ['viewer', 'editor'] as const) {
      const res = await call(auditLog.GET, '/api/audit-log', { headers: await member(role, `${role}-reader-${Date.now()}@example.com`) })
      expect(res.status).toBe(403)
    }
  })

  test('entries older than the retention are removed', async () => {
    const prisma = await getPrisma()
    await prisma.auditEntry.create({ data: { organizationId: owner.ctx.organizationId, actorType: 'user', actorId: 'u', actorLabel: 'old@example.com', action: 'datastore.created', createdAt: new Date(Date.now() - 400 * 86_400_000) } })
    expect(await pruneAudit(365)).toBeGreaterThanOrEqual(1)
    expect(await entries('?actor=old%40example.com')).toEqual([])
  })
})

test.each([
  ['POST', '/api/datastores', 'datastore.created'],
  ['PATCH', '/api/agents/{id}', 'agent.updated'],
  ['DELETE', '/api/api-keys/{id}', 'api_key.deleted'],
  ['POST', '/api/datasources/{id}/synch', 'datasource.synch'],
  ['POST', '/api/datastores/{id}/datasources/bulk', 'datasource.bulk'],
  ['POST', '/api/webhooks/deliveries/{id}/resend', 'webhook_delivery.resend'],
  ['GET', '/api/datastores', null],
])('%s %s is audited as %s', (method, path, action) => {
  expect(auditAction(method, path)?.action ?? null).toBe(action)
})
