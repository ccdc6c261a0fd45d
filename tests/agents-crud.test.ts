import { describe, expect, test } from 'vitest'
import * as agentConversations from '@/app/api/agents/[id]/conversations/route'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as agents from '@/app/api/agents/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import { APPEARANCE_DEFAULTS } from '@/lib/agents/appearance'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

const model = useFakeModel()

const patch = (id: string, headers: Record<string, string>, body: unknown) =>
  call(agentItem.PATCH, `/api/agents/${id}`, { method: 'PATCH', headers, body, params: { id } })
const get = (id: string, headers: Record<string, string>) => call(agentItem.GET, `/api/agents/${id}`, { headers, params: { id } })
const remove = (id: string, headers: Record<string, string>, body?: unknown) =>
  call(agentItem.DELETE, `/api/agents/${id}`, { method: 'DELETE', headers, body, params: { id } })

async function datastoreOf(organizationId: string, name = 'Docs') {
  const prisma = await getPrisma()
  return prisma.datastore.create({ data: { organizationId, name } })
}

describe('the agents API', () => {
  test('POST creates an agent with every field of the resource and answers 201', async () => {
    const tenant = await createTenant()
    const store = await datastoreOf(tenant.ctx.organizationId)
    const body = {
      name: 'Support bot',
      description: 'Answers kettle questions',
      modelName: 'model_4_32k',
      temperature: 0.3,
      maxTokens: 800,
      visibility: 'public',
      systemPrompt: 'You are kind.',
      userPrompt: 'Question: {query}',
      promptType: 'customer_support',
      promptTemplate: 'Be brief.',
      datastoreIds: [store.id],
    }
    const res = await call(agents.POST, '/api/agents', { method: 'POST', headers: tenant.headers, body })
    expect(res.status).toBe(201)
    // issue 14's public face: its defaults until set
    const publicFace = { appearance: APPEARANCE_DEFAULTS, allowedDomains: [], requireSignedVisitors: false, visitorSecretPrefix: null }
    // issue 13's retrieval settings: their defaults until set
    const retrieval = { rewriteQuestions: true, minScore: null, noAnswerMessage: null }
    expect(res.json).toEqual({ ...body, ...publicFace, ...retrieval, id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) })
    expect(new Date(res.json.createdAt).toISOString()).toBe(res.json.createdAt)
  })

  test('an agent created with a name only gets the defaults', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { name: 'Plain' })
    expect(agent).toMatchObject({
      name: 'Plain',
      description: '',
      modelName: 'model_3_5_turbo',
      temperature: 0,
      visibility: 'private',
      systemPrompt: null,
      userPrompt: null,
      promptType: null,
      promptTemplate: null,
      datastoreIds: [],
    })
  })

  test("a datastore of another organization is a 404 on create and on update", async () => {
    const a = await createTenant()
    const b = await createTenant()
    const theirs = await datastoreOf(b.ctx.organizationId)
    const res = await call(agents.POST, '/api/agents', { method: 'POST', headers: a.headers, body: { name: 'x', datastoreIds: [theirs.id] } })
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
    const agent = await createAgentVia(a)
    const updated = await patch(agent.id, a.headers, { description: 'd', datastoreIds: [theirs.id] })
    expect(updated.status).toBe(404)
  })

  test('GET lists the organization’s agents newest first, and only them', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const first = await createAgentVia(a, { name: 'first' })
    const second = await createAgentVia(a, { name: 'second' })
    await createAgentVia(b, { name: 'not yours' })
    const res = await call(agents.GET, '/api/agents', { headers: a.headers })
    expect(res.status).toBe(200)
    expect(res.json.map((x: any) => x.id)).toEqual([second.id, first.id])
  })

  test('GET one answers the resource; another organization’s agent is a 404', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agent = await createAgentVia(a, { name: 'mine' })
    const res = await get(agent.id, a.headers)
    expect(res.status).toBe(200)
    expect(res.json).toEqual(agent)
    const foreign = await get(agent.id, b.headers)
    expect(foreign.status).toBe(404)
    expectErrorBody(foreign.json, 'not_found')
  })

  test('PATCH without description is a 400 naming it', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const res = await patch(agent.id, tenant.headers, { name: 'New name' })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
    expect(res.json.error.details.map((d: any) => d.path)).toContain('description')
    expect((await get(agent.id, tenant.headers)).json.name).toBe('Helper')
  })

  test('PATCH changes the fields given and keeps the fields left out', async () => {
    const tenant = await createTenant()
    const store = await datastoreOf(tenant.ctx.organizationId)
    const agent = await createAgentVia(tenant, {
      name: 'Before',
      modelName: 'model_4',
      temperature: 0.4,
      systemPrompt: 'System before',
      userPrompt: 'User {query}',
      promptType: 'raw',
      promptTemplate: 'T {query}',
      datastoreIds: [store.id],
    })
    const res = await patch(agent.id, tenant.headers, { description: 'Now described', visibility: 'public', temperature: 1 })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      ...agent,
      description: 'Now described',
      visibility: 'public',
      temperature: 1,
      updatedAt: expect.any(String),
    })
    expect(await get(agent.id, tenant.headers).then(r => r.json)).toEqual(res.json)
  })

  test('PATCH accepts all four model names and replaces the datastore list; null clears a prompt', async () => {
    const tenant = await createTenant()
    const one = await datastoreOf(tenant.ctx.organizationId, 'one')
    const two = await datastoreOf(tenant.ctx.organizationId, 'two')
    const agent = await createAgentVia(tenant, { datastoreIds: [one.id], systemPrompt: 'old' })
    for (const modelName of ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4', 'model_4_32k']) {
      const res = await patch(agent.id, tenant.headers, { description: '', modelName })
      expect(res.json.modelName).toBe(modelName)
    }
    const res = await patch(agent.id, tenant.headers, { description: '', datastoreIds: [two.id], systemPrompt: null })
    expect(res.json.datastoreIds).toEqual([two.id])
    expect(res.json.systemPrompt).toBeNull()
    const emptied = await patch(agent.id, tenant.headers, { description: '', datastoreIds: [] })
    expect(emptied.json.datastoreIds).toEqual([])
  })

  test('PATCH of an unknown or foreign agent is a 404', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agent = await createAgentVia(a)
    expect((await patch('agent_unknown', a.headers, { description: 'x' })).status).toBe(404)
    expect((await patch(agent.id, b.headers, { description: 'x' })).status).toBe(404)
  })

  test('DELETE answers the deleted agent, a later GET is a 404, and its conversations go with it', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const asked = await queryAgentVia(agent.id, { query: 'Hello' }, tenant.headers)
    expect(asked.status).toBe(200)

    const res = await remove(agent.id, tenant.headers, {})
    expect(res.status).toBe(200)
    expect(res.json).toEqual(agent)
    expect((await get(agent.id, tenant.headers)).status).toBe(404)
    const conversation = await call(conversationItem.GET, `/api/conversations/${asked.json.conversationId}`, {
      headers: tenant.headers,
      params: { id: asked.json.conversationId },
    })
    expect(conversation.status).toBe(404)
    const prisma = await getPrisma()
    expect(await prisma.message.count({ where: { conversationId: asked.json.conversationId } })).toBe(0)
  })

  test('DELETE works without a body, and another organization’s agent is a 404 that deletes nothing', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agent = await createAgentVia(a)
    expect((await remove(agent.id, b.headers)).status).toBe(404)
    expect((await get(agent.id, a.headers)).status).toBe(200)
    expect((await remove(agent.id, a.headers)).status).toBe(200)
  })
})

describe('conversations for the dashboard', () => {
  test("an agent's conversations are listed most recent first, with their message count and last message", async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'First answer' })
    const older = await queryAgentVia(agent.id, { query: 'Older question' }, tenant.headers)
    model.fake.setBehaviour({ reply: 'Second answer' })
    const newer = await queryAgentVia(agent.id, { query: 'Newer question' }, tenant.headers)
    model.fake.setBehaviour({ reply: 'Third answer' })
    await queryAgentVia(agent.id, { query: 'Follow-up', conversationId: newer.json.conversationId }, tenant.headers)

    const res = await call(agentConversations.GET, `/api/agents/${agent.id}/conversations`, { headers: tenant.headers, params: { id: agent.id } })
    expect(res.status).toBe(200)
    expect(res.json.map((c: any) => c.id)).toEqual([newer.json.conversationId, older.json.conversationId])
    expect(res.json[0]).toMatchObject({
      agentId: agent.id,
      visitorId: newer.json.visitorId,
      channel: 'api',
      messageCount: 4,
      lastMessage: { role: 'assistant', preview: 'Third answer' },
    })
  })

  test('a conversation shows its messages in order with roles, sources and times', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'Hi there' })
    const asked = await queryAgentVia(agent.id, { query: 'Hello' }, tenant.headers)
    const res = await call(conversationItem.GET, `/api/conversations/${asked.json.conversationId}`, {
      headers: tenant.headers,
      params: { id: asked.json.conversationId },
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id: asked.json.conversationId, agentId: agent.id, messageCount: 2 })
    expect(res.json.messages.map((m: any) => [m.role, m.text, m.sources])).toEqual([
      ['user', 'Hello', []],
      ['assistant', 'Hi there', []],
    ])
    expect(typeof res.json.messages[0].createdAt).toBe('string')
  })

  test("another organization's conversations are 404s", async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agent = await createAgentVia(a)
    const asked = await queryAgentVia(agent.id, { query: 'Hello' }, a.headers)
    const list = await call(agentConversations.GET, `/api/agents/${agent.id}/conversations`, { headers: b.headers, params: { id: agent.id } })
    expect(list.status).toBe(404)
    const one = await call(conversationItem.GET, `/api/conversations/${asked.json.conversationId}`, {
      headers: b.headers,
      params: { id: asked.json.conversationId },
    })
    expect(one.status).toBe(404)
  })
})
