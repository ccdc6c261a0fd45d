import { encode } from 'next-auth/jwt'
import { describe, expect, test } from 'vitest'
import * as apiKeyItem from '@/app/api/api-keys/[id]/route'
import * as apiKeys from '@/app/api/api-keys/route'
import * as datastores from '@/app/api/datastores/route'
import { ensureFirstAdmin } from '@/lib/auth/first-run'
import { verifyPassword } from '@/lib/auth/passwords'
import { getPrisma } from '@/lib/db/client'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

describe('API keys', () => {
  test('a request without a key, with a malformed one or an unknown one gets 401 and the JSON body', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: 'Basic abc' }, { authorization: 'Bearer ads_unknown_key_0000000000000' }]) {
      const res = await call(datastores.GET, '/api/datastores', { headers })
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expectErrorBody(res.json, 'unauthorized')
    }
  })

  test('a key is stored only as a hash, and a revoked key is refused', async () => {
    const tenant = await createTenant()
    const created = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: tenant.headers, body: { name: 'ci' } })
    expect(created.status).toBe(201)
    const { secret, id, prefix } = created.json
    expect(secret).toMatch(/^ads_/)
    expect(secret.startsWith(prefix)).toBe(true)
    const prisma = await getPrisma()
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id } })
    expect(JSON.stringify(row)).not.toContain(secret)

    const before = await call(datastores.GET, '/api/datastores', { headers: { authorization: `Bearer ${secret}` } })
    expect(before.status).toBe(200)
    const listed = await call(apiKeys.GET, '/api/api-keys', { headers: tenant.headers })
    // the key's use is recorded, at the time it was used
    const lastUsedAt = listed.json.find((k: any) => k.id === id).lastUsedAt
    expect(Math.abs(new Date(lastUsedAt).getTime() - Date.now())).toBeLessThan(60_000)

    const revoked = await call(apiKeyItem.DELETE, `/api/api-keys/${id}`, { method: 'DELETE', headers: tenant.headers, params: { id } })
    expect(revoked.status).toBe(200)
    expect(revoked.json.revokedAt).not.toBeNull()
    const after = await call(datastores.GET, '/api/datastores', { headers: { authorization: `Bearer ${secret}` } })
    expect(after.status).toBe(401)
    expectErrorBody(after.json, 'unauthorized')
  })

  test("one organization's key cannot read or revoke another's rows", async () => {
    const a = await createTenant()
    const b = await createTenant()
    const prisma = await getPrisma()
    await prisma.datastore.create({ data: { organizationId: a.ctx.organizationId, name: 'A private docs' } })
    const seenByB = await call(datastores.GET, '/api/datastores', { headers: b.headers })
    expect(seenByB.status).toBe(200)
    expect(seenByB.json).toEqual([])
    const seenByA = await call(datastores.GET, '/api/datastores', { headers: a.headers })
    expect(seenByA.json.map((d: any) => d.name)).toEqual(['A private docs'])

    const aKeys = await call(apiKeys.GET, '/api/api-keys', { headers: a.headers })
    const aKeyId = aKeys.json[0].id
    const res = await call(apiKeyItem.DELETE, `/api/api-keys/${aKeyId}`, { method: 'DELETE', headers: b.headers, params: { id: aKeyId } })
    expect(res.status).toBe(404)
    expect((await call(datastores.GET, '/api/datastores', { headers: a.headers })).status).toBe(200)
  })

  test('datastores are listed newest first', async () => {
    const a = await createTenant()
    const prisma = await getPrisma()
    for (const [i, name] of ['first', 'second', 'third'].entries()) {
      await prisma.datastore.create({ data: { organizationId: a.ctx.organizationId, name, createdAt: new Date(Date.UTC(2026, 0, i + 1)) } })
    }
    const res = await call(datastores.GET, '/api/datastores', { headers: a.headers })
    expect(res.json.map((d: any) => d.name)).toEqual(['third', 'second', 'first'])
  })
})

describe('dashboard sessions', () => {
  async function sessionCookie(userId: string) {
    const token = await encode({ token: { sub: userId }, secret: process.env.NEXTAUTH_SECRET! })
    return `next-auth.session-token=${token}`
  }

  test('a session authorizes same-origin calls and is ignored cross-site', async () => {
    const prisma = await getPrisma()
    const org = await prisma.organization.create({ data: { name: 'Session org' } })
    const user = await prisma.user.create({ data: { email: `u${Date.now()}@example.com`, passwordHash: 'x' } })
    await prisma.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner' } })
    const cookie = await sessionCookie(user.id)

    const same = await call(apiKeys.POST, '/api/api-keys', {
      method: 'POST',
      headers: { cookie, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      body: { name: 'from the dashboard' },
    })
    expect(same.status).toBe(201)

    const cross = await call(apiKeys.POST, '/api/api-keys', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: { name: 'forged' },
    })
    expect(cross.status).toBe(401)
    const keys = await prisma.apiKey.findMany({ where: { organizationId: org.id } })
    expect(keys.map(k => k.name)).toEqual(['from the dashboard'])
  })
})

describe('first run', () => {
  test('takes INIT_* on an empty database and creates nothing on the next start', async () => {
    const prisma = await getPrisma()
    // this file's database has users from other tests: start from none
    await prisma.user.deleteMany()
    process.env.INIT_ADMIN_EMAIL = 'Owner@Example.com'
    process.env.INIT_ADMIN_PASSWORD = 'correct horse battery'
    process.env.INIT_API_KEY = 'ads_given_by_the_operator_123456'
    try {
      const created = await ensureFirstAdmin()
      expect(created).toMatchObject({ email: 'owner@example.com', password: 'correct horse battery', apiKey: 'ads_given_by_the_operator_123456' })
      const user = await prisma.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } })
      expect(await verifyPassword(user.passwordHash, 'correct horse battery')).toBe(true)
      const res = await call(datastores.GET, '/api/datastores', { headers: { authorization: 'Bearer ads_given_by_the_operator_123456' } })
      expect(res.status).toBe(200)
      expect(await ensureFirstAdmin()).toBeNull()
      expect(await prisma.user.count()).toBe(1)
    } finally {
      delete process.env.INIT_ADMIN_EMAIL
      delete process.env.INIT_ADMIN_PASSWORD
      delete process.env.INIT_API_KEY
    }
  })
})
