// Several organizations per user (issue 24): created with the caller as owner, listed, switched; the session sees the
// current one's data and never another's; a key stays bound to its organization. And a key limited to agents sees
// only their conversations.
import { beforeAll, describe, expect, test } from 'vitest'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as conversationMessages from '@/app/api/conversations/[id]/messages/route'
import * as conversations from '@/app/api/conversations/route'
import * as datastores from '@/app/api/datastores/route'
import * as feedback from '@/app/api/conversations/[id]/messages/[messageId]/feedback/route'
import * as dismiss from '@/app/api/gaps/dismiss/route'
import * as gaps from '@/app/api/gaps/route'
import * as organizations from '@/app/api/organizations/route'
import * as switchOrganization from '@/app/api/session/organization/route'
import { createApiKey } from '@/lib/auth/api-keys'
import { getPrisma } from '@/lib/db/client'
import { call, expectErrorBody } from '../helpers/http'
import { createTenantWorld, type TenantWorld } from '../helpers/hardening/world'

let world: TenantWorld
let stranger: TenantWorld

beforeAll(async () => {
  world = await createTenantWorld('orgs')
  stranger = await createTenantWorld('stranger')
})

/** The session's headers with the cookie a switch answered added (as the browser keeps it). */
function withCookie(headers: Record<string, string>, res: { headers: Headers }): Record<string, string> {
  const set = res.headers.get('set-cookie')!.split(';')[0]
  return { ...headers, cookie: `${headers.cookie}; ${set}` }
}

const names = async (headers: Record<string, string>) => (await call(datastores.GET, '/api/datastores', { headers })).json.map((d: { name: string }) => d.name)

describe('organizations', () => {
  test('a user in two organizations sees each one’s datastores after switching, never the other’s', async () => {
    const created = await call(organizations.POST, '/api/organizations', { method: 'POST', headers: world.session, body: { name: 'Second team' } })
    expect(created.status, created.text).toBe(201)
    expect(created.json).toMatchObject({ name: 'Second team', role: 'owner', current: false })
    const prisma = await getPrisma()
    await prisma.datastore.create({ data: { organizationId: created.json.id, name: 'Second team docs' } })
    const first = await names(world.session)
    expect(first).toContain((await prisma.datastore.findUniqueOrThrow({ where: { id: world.datastoreId } })).name)
    expect(first).not.toContain('Second team docs')

    const switched = await call(switchOrganization.POST, '/api/session/organization', { method: 'POST', headers: world.session, body: { organizationId: created.json.id } })
    expect(switched.status, switched.text).toBe(200)
    expect(switched.headers.get('set-cookie')).toMatch(/HttpOnly/)
    const inSecond = withCookie(world.session, switched)
    expect(await names(inSecond)).toEqual(['Second team docs'])
    const listed = await call(organizations.GET, '/api/organizations', { headers: inSecond })
    expect(listed.json.find((o: { current: boolean }) => o.current).id).toBe(created.json.id)

    const back = await call(switchOrganization.POST, '/api/session/organization', { method: 'POST', headers: inSecond, body: { organizationId: world.ctx.organizationId } })
    const inFirst = withCookie(world.session, back)
    expect(await names(inFirst)).toEqual(first)
  })

  test("switching to an organization the user does not belong to is 404, and the session stays in its own", async () => {
    const res = await call(switchOrganization.POST, '/api/session/organization', { method: 'POST', headers: world.session, body: { organizationId: stranger.ctx.organizationId } })
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
    expect(res.headers.get('set-cookie')).toBeNull()
    // a cookie naming it by hand grants nothing either
    const forged = { ...world.session, cookie: `${world.session.cookie}; ads-organization=${stranger.ctx.organizationId}` }
    const seen = await names(forged)
    expect(seen.some((n: string) => n.startsWith('stranger'))).toBe(false)
    expect(seen.length).toBeGreaterThan(0)
  })

  test('an API key lists only its own organization, and cannot create or switch one (403)', async () => {
    const listed = await call(organizations.GET, '/api/organizations', { headers: world.headers })
    expect(listed.json).toEqual([expect.objectContaining({ id: world.ctx.organizationId, role: null, current: true })])
    const created = await call(organizations.POST, '/api/organizations', { method: 'POST', headers: world.headers, body: { name: 'By a key' } })
    expect(created.status).toBe(403)
    expectErrorBody(created.json, 'forbidden')
    const switched = await call(switchOrganization.POST, '/api/session/organization', { method: 'POST', headers: world.headers, body: { organizationId: world.ctx.organizationId } })
    expect(switched.status).toBe(403)
  })
})

describe('a key limited to agents', () => {
  test("lists only those agents' conversations, and is 404 on the others", async () => {
    const prisma = await getPrisma()
    const organizationId = world.ctx.organizationId
    const other = await prisma.agent.create({ data: { organizationId, name: 'Sales agent' } })
    const visitor = await prisma.visitor.create({ data: { organizationId } })
    const hidden = await prisma.conversation.create({ data: { organizationId, agentId: other.id, visitorId: visitor.id, channel: 'api', title: 'Sales question' } })
    const { secret } = await createApiKey(world.ctx, 'support only', undefined, { agentIds: [world.agentId] })
    const headers = { authorization: `Bearer ${secret}` }

    const list = await call(conversations.GET, '/api/conversations', { headers })
    expect(list.status).toBe(200)
    expect(list.json.items.map((c: { id: string }) => c.id)).toEqual([world.conversationId])
    expect(list.json.counts.all).toBe(1)
    // the organization's full key sees both
    const all = await call(conversations.GET, '/api/conversations', { headers: world.headers })
    expect(all.json.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([world.conversationId, hidden.id]))

    for (const [handler, path] of [[conversationItem.GET, `/api/conversations/${hidden.id}`], [conversationMessages.GET, `/api/conversations/${hidden.id}/messages`]] as const) {
      const res = await call(handler, path, { headers, params: { id: hidden.id } })
      expect(res.status, path).toBe(404)
      expectErrorBody(res.json, 'not_found')
    }
    const patched = await call(conversationItem.PATCH, `/api/conversations/${hidden.id}`, { method: 'PATCH', headers, body: { status: 'RESOLVED' }, params: { id: hidden.id } })
    expect(patched.status).toBe(404)
    expect((await call(conversationItem.GET, `/api/conversations/${world.conversationId}`, { headers, params: { id: world.conversationId } })).status).toBe(200)
  })
  test("its gaps and votes are those of its agents' answers: another agent's answer is 404", async () => {
    const prisma = await getPrisma()
    const organizationId = world.ctx.organizationId
    const other = await prisma.agent.create({ data: { organizationId, name: 'Billing agent' } })
    const visitor = await prisma.visitor.create({ data: { organizationId } })
    const hidden = await prisma.conversation.create({ data: { organizationId, agentId: other.id, visitorId: visitor.id, channel: 'api', title: 'Billing question' } })
    await prisma.message.create({ data: { conversationId: hidden.id, role: 'user', text: 'Why was I charged twice?' } })
    const answer = await prisma.message.create({ data: { conversationId: hidden.id, role: 'assistant', text: "I don't know.", sources: [], noSources: true } })
    const { secret } = await createApiKey(world.ctx, 'support gaps only', undefined, { agentIds: [world.agentId] })
    const headers = { authorization: `Bearer ${secret}` }

    const gapIds = async (h: Record<string, string>) => (await call(gaps.GET, '/api/gaps', { headers: h })).json.flatMap((g: { items: { messageId: string }[] }) => g.items.map(i => i.messageId))
    expect(await gapIds(world.headers)).toContain(answer.id) // the organization's full key sees the gap
    expect(await gapIds(headers)).not.toContain(answer.id)
    const dismissed = await call(dismiss.POST, '/api/gaps/dismiss', { method: 'POST', headers, body: { messageIds: [answer.id] } })
    expect(dismissed.status).toBe(404)
    const voted = await call(feedback.POST, `/api/conversations/${hidden.id}/messages/${answer.id}/feedback`, { method: 'POST', headers, body: { vote: 'bad' }, params: { id: hidden.id, messageId: answer.id } })
    expect(voted.status).toBe(404)
    expectErrorBody(voted.json, 'not_found')
  })
})
