// The support workflow (issue 23, DESIGN.md §11) with the calls Chaindesk's widget makes: a visitor asks for a person
// without a key, the team is told by a signed webhook, an operator takes over and replies, the visitor's messages are
// stored without calling the model, leads are captured and listed, conversations get resolved.
import { describe, expect, test } from 'vitest'
import * as capture from '@/app/api/agents/[id]/capture/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as conversationMessage from '@/app/api/conversations/[id]/message/route'
import * as reviewRoute from '@/app/api/conversations/[id]/messages/route'
import * as inbox from '@/app/api/conversations/route'
import * as leadsExport from '@/app/api/leads/export/route'
import * as leads from '@/app/api/leads/route'
import { csvField } from '@/lib/csv'
import { drainWebhooks } from '@/lib/ingest/background'
import { verifySignature } from '@/lib/webhooks'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'
import { useWebhookReceivers } from './helpers/webhook-receiver'

process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1000000'
const model = useFakeModel()

const subscribedReceiver = useWebhookReceivers()

/** A public agent's visitor who has asked one question: the conversation and visitor ids the widget keeps. */
async function visitorConversation(visibility: 'public' | 'private' = 'public') {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant, { visibility })
  model.fake.setBehaviour({ reply: 'The warranty is two years.', delayMs: 0 })
  const asked = await queryAgentVia(agent.id, { query: 'What is the warranty?' }, visibility === 'public' ? {} : tenant.headers)
  expect(asked.status, asked.text).toBe(200)
  return { tenant, agent, conversationId: asked.json.conversationId as string, visitorId: asked.json.visitorId as string }
}

const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  call(conversationItem.PATCH, `/api/conversations/${id}`, { method: 'PATCH', headers, body, params: { id } })
const read = (id: string, headers: Record<string, string> = {}) => call(conversationItem.GET, `/api/conversations/${id}?cursor=`, { headers, params: { id } })
const post = (id: string, body: unknown, headers: Record<string, string> = {}) =>
  call(conversationMessage.POST, `/api/conversations/${id}/message`, { method: 'POST', headers, body, params: { id } })
const captureLead = (agentId: string, body: unknown, headers: Record<string, string> = {}) =>
  call(capture.POST, `/api/agents/${agentId}/capture`, { method: 'POST', headers, body, params: { id: agentId } })

describe('a visitor asks for a person', () => {
  test('the widget\'s key-less PATCH {status: "HUMAN_REQUESTED"} is stored and its GET shows it', async () => {
    const { conversationId } = await visitorConversation()
    const res = await patch(conversationId, { status: 'HUMAN_REQUESTED' })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ id: conversationId, status: 'HUMAN_REQUESTED', isAiEnabled: true, assigneeId: null })
    const seen = await read(conversationId)
    expect(seen.json).toMatchObject({ status: 'HUMAN_REQUESTED', isAiEnabled: true })
  })

  test('the inbox lists handed-over conversations under ?status=HUMAN_REQUESTED, and not one nobody handed over', async () => {
    const { tenant, agent, conversationId } = await visitorConversation()
    const untouched = await queryAgentVia(agent.id, { query: 'Another question' })
    await patch(conversationId, { status: 'HUMAN_REQUESTED' })
    const res = await call(inbox.GET, '/api/conversations?status=HUMAN_REQUESTED', { headers: tenant.headers })
    expect(res.status, res.text).toBe(200)
    expect(res.json.items.map((c: any) => c.id)).toEqual([conversationId])
    expect(res.json.items[0]).toMatchObject({ status: 'HUMAN_REQUESTED', isAiEnabled: true, priority: 'MEDIUM' })
    expect(res.json.counts).toEqual({ all: 2, UNRESOLVED: 1, HUMAN_REQUESTED: 1, RESOLVED: 0 })
    const open = await call(inbox.GET, '/api/conversations?status=UNRESOLVED', { headers: tenant.headers })
    expect(open.json.items.map((c: any) => c.id)).toEqual([untouched.json.conversationId])
  })

  test('a signed conversation.human_requested delivery reaches the team\'s receiver, with the lead left before', async () => {
    const { tenant, agent, conversationId, visitorId } = await visitorConversation()
    const receiver = await subscribedReceiver(tenant, ['conversation.human_requested'])
    expect((await captureLead(agent.id, { visitorEmail: 'ada@example.com', conversationId, visitorId })).status).toBe(201)
    await patch(conversationId, { status: 'HUMAN_REQUESTED' })
    await drainWebhooks()
    expect(receiver.received).toHaveLength(1)
    const { headers, body } = receiver.received[0]
    expect(verifySignature(receiver.secret, body, String(headers['x-webhook-signature']))).toBe(true)
    expect(JSON.parse(body)).toMatchObject({
      type: 'conversation.human_requested',
      data: { conversationId, agentId: agent.id, visitorId, by: 'visitor', leadEmail: 'ada@example.com' },
    })
  })

  test('the change is recorded as an event: what, who, when', async () => {
    const { tenant, conversationId } = await visitorConversation()
    await patch(conversationId, { status: 'HUMAN_REQUESTED' })
    await patch(conversationId, { priority: 'HIGH' }, tenant.headers)
    const opened = await call(reviewRoute.GET, `/api/conversations/${conversationId}/messages`, { headers: tenant.headers, params: { id: conversationId } })
    expect(opened.json.events.map((e: any) => [e.type, e.from, e.to, e.actor.type, e.actor.name])).toEqual([
      ['status', 'UNRESOLVED', 'HUMAN_REQUESTED', 'visitor', null],
      ['priority', 'MEDIUM', 'HIGH', 'api_key', 'test key'],
    ])
    expect(Date.parse(opened.json.events[0].createdAt)).toBeGreaterThan(Date.now() - 60_000)
  })
})

describe('who may change a conversation', () => {
  test("a key-less PATCH of a private agent's conversation is refused, and another organization's key gets 404", async () => {
    const { conversationId } = await visitorConversation('private')
    const anonymous = await patch(conversationId, { status: 'HUMAN_REQUESTED' })
    expect(anonymous.status).toBe(401)
    expectErrorBody(anonymous.json, 'unauthorized')
    const stranger = await createTenant()
    expect((await patch(conversationId, { status: 'RESOLVED' }, stranger.headers)).status).toBe(404)
  })

  test('without a key a visitor may only ask for a person or resolve: not take the AI off, not reopen', async () => {
    const { conversationId } = await visitorConversation()
    expect((await patch(conversationId, { isAiEnabled: false })).status).toBe(401)
    const reopen = await patch(conversationId, { status: 'UNRESOLVED' })
    expect(reopen.status).toBe(400)
    expectErrorBody(reopen.json, 'invalid_request')
    expect((await read(conversationId)).json).toMatchObject({ status: 'UNRESOLVED', isAiEnabled: true })
  })

  test('bad values are 400 with the error body', async () => {
    const { tenant, conversationId } = await visitorConversation()
    for (const body of [{ status: 'CLOSED' }, { isAiEnabled: 'no' }, { priority: 'URGENT' }, {}, { assigneeId: 5 }]) {
      const res = await patch(conversationId, body, tenant.headers)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expectErrorBody(res.json, 'invalid_request')
    }
  })

  test("a conversation is assigned to a member of its organization only; another organization's user is 404", async () => {
    const { tenant, conversationId } = await visitorConversation()
    const { getPrisma } = await import('@/lib/db/client')
    const prisma = await getPrisma()
    const member = await prisma.user.create({ data: { email: `op-${Date.now()}@example.com`, name: 'Olga', passwordHash: 'x' } })
    await prisma.membership.create({ data: { organizationId: tenant.ctx.organizationId, userId: member.id, role: 'operator' } })
    const outsider = await prisma.user.create({ data: { email: `out-${Date.now()}@example.com`, passwordHash: 'x' } })
    expect((await patch(conversationId, { assigneeId: outsider.id }, tenant.headers)).status).toBe(404)
    const assigned = await patch(conversationId, { assigneeId: member.id }, tenant.headers)
    expect(assigned.json.assigneeId).toBe(member.id)
    const mine = await call(inbox.GET, `/api/conversations?assigneeId=${member.id}`, { headers: tenant.headers })
    expect(mine.json.items.map((c: any) => c.id)).toEqual([conversationId])
    // a visitor does not see whom it is assigned to
    expect((await read(conversationId)).json.assigneeId).toBeNull()
  })
})

describe('an operator takes over', () => {
  test('the operator (key) turns the AI off and replies; the visitor\'s GET shows the reply from "agent", named', async () => {
    const { tenant, conversationId } = await visitorConversation()
    expect((await patch(conversationId, { isAiEnabled: false }, tenant.headers)).json.isAiEnabled).toBe(false)
    const reply = await post(conversationId, { message: 'Hello, Sam from support here.' }, tenant.headers)
    expect(reply.status, reply.text).toBe(201)
    expect(reply.json).toMatchObject({ from: 'agent', operatorName: 'test key' })
    const seen = await read(conversationId)
    expect(seen.json.isAiEnabled).toBe(false)
    // Chaindesk's paging: newest first
    expect(seen.json.messages[0]).toMatchObject({ from: 'agent', text: 'Hello, Sam from support here.', operatorName: 'test key' })
    const listed = await call(inbox.GET, '/api/conversations?aiEnabled=false', { headers: tenant.headers })
    expect(listed.json.items.map((c: any) => c.id)).toEqual([conversationId])
  })

  test('replying takes the conversation over, as in Chaindesk', async () => {
    const { tenant, conversationId } = await visitorConversation()
    await post(conversationId, { message: 'I am on it.' }, tenant.headers)
    expect((await read(conversationId)).json.isAiEnabled).toBe(false)
  })

  test("the visitor's POST …/message is stored and the model server receives no request", async () => {
    const { tenant, conversationId, visitorId } = await visitorConversation()
    await patch(conversationId, { isAiEnabled: false }, tenant.headers)
    model.fake.reset()
    const sent = await post(conversationId, { from: 'human', message: 'Is anyone there?', channel: 'website', visitorId })
    expect(sent.status, sent.text).toBe(201)
    expect(sent.json).toMatchObject({ from: 'human', text: 'Is anyone there?' })
    expect((await read(conversationId)).json.messages[0]).toMatchObject({ from: 'human', text: 'Is anyone there?' })
    expect(model.fake.requests).toEqual([])
  })

  test("a stranger holding the id cannot write as the conversation's visitor, nor reply as an operator without a key", async () => {
    const { conversationId } = await visitorConversation()
    expect((await post(conversationId, { from: 'human', message: 'Hi', visitorId: 'someone-else-entirely' })).status).toBe(404)
    const { visitorId } = await visitorConversation()
    expect((await post(conversationId, { from: 'agent', message: 'I am staff', visitorId })).status).toBe(401)
  })

  test('a query while a person has the conversation is stored, not sent to the model, and told a person will reply (JSON and stream)', async () => {
    const { tenant, agent, conversationId, visitorId } = await visitorConversation()
    await call((await import('@/app/api/agents/[id]/route')).PATCH, `/api/agents/${agent.id}`, {
      method: 'PATCH', headers: tenant.headers, params: { id: agent.id }, body: { description: '', appearance: { handoffMessage: 'Olga will answer you here.' } },
    })
    await patch(conversationId, { isAiEnabled: false }, tenant.headers)
    model.fake.reset()
    const json = await queryAgentVia(agent.id, { query: 'Still there?', conversationId, visitorId })
    expect(json.status, json.text).toBe(200)
    expect(json.json).toMatchObject({ answer: 'Olga will answer you here.', conversationId, sources: [] })
    const stream = await queryAgentVia(agent.id, { query: 'Hello?', conversationId, visitorId, streaming: true })
    expect(stream.headers.get('content-type')).toBe('text/event-stream')
    expect(stream.text).toContain('Olga will answer you here.')
    expect(stream.text).toContain('[DONE]')
    expect(model.fake.requests).toEqual([])
    const texts = (await read(conversationId)).json.messages.map((m: any) => m.text)
    expect(texts).toContain('Still there?')
    expect(texts).toContain('Hello?')
  })

  test('handing back to the AI lets the model answer again', async () => {
    const { tenant, agent, conversationId, visitorId } = await visitorConversation()
    await patch(conversationId, { isAiEnabled: false }, tenant.headers)
    await patch(conversationId, { isAiEnabled: true }, tenant.headers)
    model.fake.setBehaviour({ reply: 'Back to the model.', delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'And now?', conversationId, visitorId })
    expect(res.json.answer).toBe('Back to the model.')
  })
})

describe('resolving', () => {
  test('PATCH {status: "RESOLVED"} delivers conversation.resolved and records when', async () => {
    const { tenant, conversationId } = await visitorConversation()
    const receiver = await subscribedReceiver(tenant, ['conversation.resolved'])
    const res = await patch(conversationId, { status: 'RESOLVED' })
    expect(res.json.status).toBe('RESOLVED')
    expect(Date.parse(res.json.resolvedAt)).toBeGreaterThan(Date.now() - 60_000)
    await drainWebhooks()
    expect(receiver.received).toHaveLength(1)
    expect(verifySignature(receiver.secret, receiver.received[0].body, String(receiver.received[0].headers['x-webhook-signature']))).toBe(true)
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'conversation.resolved', data: { conversationId, by: 'visitor' } })
  })

  test('a visitor who writes again in a resolved conversation reopens it', async () => {
    const { tenant, conversationId, visitorId } = await visitorConversation()
    await patch(conversationId, { status: 'RESOLVED', isAiEnabled: false }, tenant.headers)
    await post(conversationId, { from: 'human', message: 'One more thing', visitorId })
    expect((await read(conversationId)).json).toMatchObject({ status: 'UNRESOLVED', resolvedAt: null })
  })
})

describe('leads', () => {
  test('a valid email is stored once per conversation, listed in GET /api/leads and shown to the widget; a bad one is 400', async () => {
    const { tenant, agent, conversationId, visitorId } = await visitorConversation()
    const receiver = await subscribedReceiver(tenant, ['lead.captured'])
    const first = await captureLead(agent.id, { visitorEmail: 'Ada@Example.com', conversationId, visitorId })
    expect(first.status, first.text).toBe(201)
    expect((await captureLead(agent.id, { visitorEmail: 'ada@example.com', conversationId, visitorId })).status).toBe(200)
    const bad = await captureLead(agent.id, { visitorEmail: 'not an email', conversationId, visitorId })
    expect(bad.status).toBe(400)
    expectErrorBody(bad.json, 'invalid_request')
    const listed = await call(leads.GET, '/api/leads', { headers: tenant.headers })
    expect(listed.json.items.map((l: any) => [l.email, l.agentId, l.conversationId, l.visitorId])).toEqual([['ada@example.com', agent.id, conversationId, visitorId]])
    expect((await read(conversationId)).json.lead).toEqual({ email: 'ada@example.com' })
    await drainWebhooks()
    expect(receiver.received.map(r => JSON.parse(r.body).data.email)).toEqual(['ada@example.com'])
  })

  test("leads are the organization's: another organization lists none of them and cannot capture into its conversation", async () => {
    const { agent, conversationId, visitorId } = await visitorConversation()
    await captureLead(agent.id, { visitorEmail: 'ada@example.com', conversationId, visitorId })
    const stranger = await createTenant()
    const theirs = await call(leads.GET, `/api/leads?agentId=${agent.id}`, { headers: stranger.headers })
    expect(theirs.json.items).toEqual([])
    const otherAgent = await createAgentVia(stranger, { visibility: 'public' })
    expect((await captureLead(otherAgent.id, { visitorEmail: 'x@example.com', conversationId })).status).toBe(404)
  })

  test('the CSV export lists the leads of the agent asked for, and a value a spreadsheet would run is text', async () => {
    const { tenant, agent, conversationId, visitorId } = await visitorConversation()
    await captureLead(agent.id, { visitorEmail: 'ada@example.com', conversationId, visitorId })
    const res = await call(leadsExport.GET, `/api/leads/export?agentId=${agent.id}`, { headers: tenant.headers })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const [header, row, end] = res.text.split('\r\n')
    expect(header).toBe('email,name,phone,agent_id,agent_name,conversation_id,visitor_id,created_at')
    expect(row.startsWith(`ada@example.com,,,${agent.id},`)).toBe(true)
    expect(end).toBe('')
    for (const [value, cell] of [['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`], ['+1', "'+1"], ['-2', "'-2"], ['@SUM(A1)', "'@SUM(A1)"], ['plain', 'plain']]) {
      expect(csvField(value)).toBe(cell)
    }
  })
})
