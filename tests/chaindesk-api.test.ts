import { beforeEach, describe, expect, test } from 'vitest'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as agents from '@/app/api/agents/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as conversations from '@/app/api/conversations/route'
import { getPrisma } from '@/lib/db/client'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

// Chaindesk's clients' habits (DESIGN.md §7): ids they mint or clear, gpt_* model names, `from` on messages, the
// organization's conversation list, and a public agent's conversation read back without a key.

const model = useFakeModel()
beforeEach(() => resetPublicQueryLimits())

const WIDGET_CONVERSATION_ID = () => crypto.randomUUID()

function readConversation(id: string, headers: Record<string, string> = {}, search = '') {
  return call(conversationItem.GET, `/api/conversations/${id}${search}`, { headers, params: { id } })
}

describe('ids as Chaindesk clients send them', () => {
  test('"" for conversationId and visitorId means none, as null does', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const res = await queryAgentVia(agent.id, { query: 'Hi', conversationId: '', visitorId: '' }, tenant.headers)
    expect(res.status).toBe(200)
    expect(res.json.conversationId).toEqual(expect.any(String))
    expect(res.json.visitorId).toEqual(expect.any(String))
  })

  test('an unknown, well-formed conversationId starts a conversation under that id, which the next query continues', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    const conversationId = WIDGET_CONVERSATION_ID()

    const first = await queryAgentVia(agent.id, { query: 'First', conversationId, visitorId: null })
    expect(first.status).toBe(200)
    expect(first.json.conversationId).toBe(conversationId)
    const second = await queryAgentVia(agent.id, { query: 'Second', conversationId, visitorId: first.json.visitorId })
    expect(second.json.conversationId).toBe(conversationId)

    const prisma = await getPrisma()
    const stored = await prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { messages: true } })
    expect(stored).toMatchObject({ agentId: agent.id, organizationId: owner.ctx.organizationId, visitorId: first.json.visitorId })
    expect(stored.messages).toHaveLength(4)
  })

  test("another agent's conversation id is refused, even of the same organization, and is not taken over", async () => {
    const owner = await createTenant()
    const mine = await createAgentVia(owner, { visibility: 'public' })
    const other = await createAgentVia(owner, { visibility: 'public' })
    const theirs = await queryAgentVia(other.id, { query: 'Mine', conversationId: WIDGET_CONVERSATION_ID() })

    const res = await queryAgentVia(mine.id, { query: 'Hijack', conversationId: theirs.json.conversationId, visitorId: theirs.json.visitorId })

    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
  })

  test('the conversation and visitor ids we mint are random UUIDs', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const res = await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(res.json.conversationId).toMatch(uuid)
    expect(res.json.visitorId).toMatch(uuid)
  })
})

describe("Chaindesk's gpt_* model names", () => {
  test('are accepted when creating and updating an agent, and answered as the spec names them', async () => {
    const tenant = await createTenant()
    const created = await createAgentVia(tenant, { modelName: 'gpt_3_5_turbo_16k' })
    expect(created.modelName).toBe('model_3_5_turbo_16k')
    const updated = await call(agentItem.PATCH, `/api/agents/${created.id}`, {
      method: 'PATCH',
      headers: tenant.headers,
      body: { description: 'd', modelName: 'gpt_4_32k' },
      params: { id: created.id },
    })
    expect(updated.json.modelName).toBe('model_4_32k')
    const listed = await call(agents.GET, '/api/agents', { headers: tenant.headers })
    expect(JSON.stringify(listed.json)).not.toContain('gpt_')
  })

  test('are accepted as a query override, which reaches the model as the mapped model', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { modelName: 'model_3_5_turbo' })
    const viaAlias = await queryAgentVia(agent.id, { query: 'Hi', modelName: 'gpt_4' }, tenant.headers)
    const viaName = await queryAgentVia(agent.id, { query: 'Hi', modelName: 'model_4' }, tenant.headers)
    expect(viaAlias.status).toBe(200)
    const [a, b] = model.fake.chatRequests()
    expect(a.model).toBe(b.model)
    expect(viaName.status).toBe(200)
  })
})

describe('conversations as Chaindesk clients read them', () => {
  test('messages carry from: human | agent beside role', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const asked = await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
    const res = await readConversation(asked.json.conversationId, tenant.headers)
    expect(res.json.messages.map((m: any) => [m.role, m.from])).toEqual([
      ['user', 'human'],
      ['assistant', 'agent'],
    ])
    expect(res.json).toMatchObject({ isAiEnabled: true, status: 'UNRESOLVED' })
  })

  test("GET /api/conversations lists the organization's conversations newest first, a page at a time", async () => {
    const tenant = await createTenant()
    const other = await createTenant()
    const agent = await createAgentVia(tenant)
    const ids: string[] = []
    for (const q of ['one', 'two', 'three']) ids.push((await queryAgentVia(agent.id, { query: q }, tenant.headers)).json.conversationId)
    await queryAgentVia((await createAgentVia(other)).id, { query: 'elsewhere' }, other.headers)

    const first = await call(conversations.GET, '/api/conversations?limit=2', { headers: tenant.headers })
    expect(first.status).toBe(200)
    expect(first.json.items.map((c: any) => c.id)).toEqual([ids[2], ids[1]])
    const second = await call(conversations.GET, `/api/conversations?limit=2&cursor=${first.json.nextCursor}`, { headers: tenant.headers })
    expect(second.json.items.map((c: any) => c.id)).toEqual([ids[0]])
    expect(second.json.nextCursor).toBeNull()
  })

  test('GET /api/conversations needs a key, and refuses a forged cursor with 400', async () => {
    const tenant = await createTenant()
    expect((await call(conversations.GET, '/api/conversations')).status).toBe(401)
    expect((await call(conversations.GET, '/api/conversations?cursor=forged', { headers: tenant.headers })).status).toBe(400)
  })

  test("a public agent's conversation is read without a key; a private agent's is not", async () => {
    const owner = await createTenant()
    const publicAgent = await createAgentVia(owner, { visibility: 'public' })
    const privateAgent = await createAgentVia(owner)
    const open = await queryAgentVia(publicAgent.id, { query: 'Hi', conversationId: WIDGET_CONVERSATION_ID() })
    const closed = await queryAgentVia(privateAgent.id, { query: 'Hi' }, owner.headers)

    const read = await readConversation(open.json.conversationId)
    expect(read.status).toBe(200)
    expect(read.json.messages).toHaveLength(2)
    expect((await readConversation(closed.json.conversationId)).status).toBe(401)
    const stranger = await createTenant()
    expect((await readConversation(closed.json.conversationId, stranger.headers)).status).toBe(404)
  })

  test('PUBLIC_CONVERSATION_READ=0 requires a key for every conversation', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    const asked = await queryAgentVia(agent.id, { query: 'Hi' })
    process.env.PUBLIC_CONVERSATION_READ = '0'
    try {
      expect((await readConversation(asked.json.conversationId)).status).toBe(401)
      expect((await readConversation(asked.json.conversationId, owner.headers)).status).toBe(200)
    } finally {
      delete process.env.PUBLIC_CONVERSATION_READ
    }
  })

  test("`?cursor=` pages as Chaindesk's widget reads: newest first, then older than the cursor", async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const first = await queryAgentVia(agent.id, { query: 'one' }, tenant.headers)
    const conversationId = first.json.conversationId
    await queryAgentVia(agent.id, { query: 'two', conversationId }, tenant.headers)

    const page = await readConversation(conversationId, tenant.headers, '?cursor=')
    expect(page.json.messages.map((m: any) => m.from)).toEqual(['agent', 'human', 'agent', 'human'])
    expect(page.json.messages.at(-1).text).toBe('one')
    const older = await readConversation(conversationId, tenant.headers, `?cursor=${page.json.messages[1].id}`)
    expect(older.json.messages.map((m: any) => m.text)).toEqual(page.json.messages.slice(2).map((m: any) => m.text))
  })
})
