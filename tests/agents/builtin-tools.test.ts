// The built-in actions an agent can be given (issues 23 and 25): request_human, mark_as_resolved and lead_capture,
// called by the model (the fake OpenAI-compatible server emits the tool call) and acting through the support
// workflow exactly as the visitor's own buttons do: the status, the webhook, the lead.
import { describe, expect, test } from 'vitest'
import * as agentsRoute from '@/app/api/agents/route'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as leads from '@/app/api/leads/route'
import { drainWebhooks } from '@/lib/ingest/background'
import { verifySignature } from '@/lib/webhooks'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'
import { useWebhookReceivers } from '../helpers/webhook-receiver'

const model = useFakeModel()

const subscribedReceiver = useWebhookReceivers()

async function agentWith(tools: unknown[]) {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant, { tools })
  return { tenant, agent }
}

const readConversation = (tenant: TestTenant, id: string) => call(conversationItem.GET, `/api/conversations/${id}`, { headers: tenant.headers, params: { id } })

describe('request_human', () => {
  test('the model hands the conversation over: HUMAN_REQUESTED, a signed conversation.human_requested, and the answer completes', async () => {
    const { tenant, agent } = await agentWith([{ type: 'request_human' }])
    const receiver = await subscribedReceiver(tenant, ['conversation.human_requested'])
    model.fake.setBehaviour({ toolCalls: [{ name: 'request_human', arguments: {} }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'I want to talk to a person' }, tenant.headers)

    expect(res.status, res.text).toBe(200)
    expect(res.json.answer).toContain('a person will reply')
    expect(res.json.toolCalls).toEqual([expect.objectContaining({ tool: 'request_human', kind: 'builtin', ok: true })])
    expect((await readConversation(tenant, res.json.conversationId)).json.status).toBe('HUMAN_REQUESTED')
    await drainWebhooks()
    expect(receiver.received).toHaveLength(1)
    const { headers, body } = receiver.received[0]
    expect(verifySignature(receiver.secret, body, String(headers['x-webhook-signature']))).toBe(true)
    expect(JSON.parse(body)).toMatchObject({ type: 'conversation.human_requested', data: { conversationId: res.json.conversationId, agentId: agent.id, by: 'agent' } })
  })

  test('streaming: the tool events, then the answer, and the conversation is HUMAN_REQUESTED', async () => {
    const { tenant, agent } = await agentWith([{ type: 'request_human' }])
    model.fake.setBehaviour({ toolCalls: [{ name: 'request_human', arguments: {} }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'A person, please', streaming: true }, tenant.headers)

    const { wire, answer, endpointResponse } = parseSse(res.text)
    expect(wire.map(e => e.event)).toContain('tool_result')
    expect(answer).toContain('a person will reply')
    expect((await readConversation(tenant, endpointResponse!.conversationId)).json.status).toBe('HUMAN_REQUESTED')
  })

  test('the model is offered the tool under its type, with an object schema', async () => {
    const { tenant, agent } = await agentWith([{ type: 'request_human' }, { type: 'mark_as_resolved' }, { type: 'lead_capture' }])
    model.fake.setBehaviour({ reply: 'Hello.', delayMs: 0 })
    await queryAgentVia(agent.id, { query: 'Hello' }, tenant.headers)
    const offered = model.fake.chatRequests()[0].tools.map((t: any) => t.function)
    expect(offered.map((f: any) => f.name)).toEqual(['request_human', 'mark_as_resolved', 'lead_capture'])
    expect(offered.every((f: any) => f.parameters.type === 'object' && f.description.length > 20)).toBe(true)
  })
})

describe('mark_as_resolved', () => {
  test('the model resolves the conversation: RESOLVED and conversation.resolved delivered', async () => {
    const { tenant, agent } = await agentWith([{ type: 'mark_as_resolved' }])
    const receiver = await subscribedReceiver(tenant, ['conversation.resolved'])
    model.fake.setBehaviour({ toolCalls: [{ name: 'mark_as_resolved', arguments: {} }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Thanks, that is all' }, tenant.headers)

    expect(res.status, res.text).toBe(200)
    const conversation = await readConversation(tenant, res.json.conversationId)
    expect(conversation.json).toMatchObject({ status: 'RESOLVED', resolvedAt: expect.any(String) })
    await drainWebhooks()
    expect(receiver.received.map(r => JSON.parse(r.body))).toEqual([expect.objectContaining({ type: 'conversation.resolved', data: expect.objectContaining({ by: 'agent' }) })])
  })
})

describe('lead_capture', () => {
  test('a good email is kept as a lead of the conversation, with name and phone, listed in GET /api/leads', async () => {
    const { tenant, agent } = await agentWith([{ type: 'lead_capture' }])
    const receiver = await subscribedReceiver(tenant, ['lead.captured'])
    model.fake.setBehaviour({ toolCalls: [{ name: 'lead_capture', arguments: { email: 'Ada@Example.com', name: 'Ada', phone: '+33 1 23 45 67 89' } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Reach me at Ada@Example.com' }, tenant.headers)

    expect(res.status, res.text).toBe(200)
    const listed = await call(leads.GET, '/api/leads', { headers: tenant.headers })
    expect(listed.json.items).toEqual([expect.objectContaining({ email: 'ada@example.com', name: 'Ada', phone: '+33 1 23 45 67 89', agentId: agent.id, conversationId: res.json.conversationId })])
    await drainWebhooks()
    expect(receiver.received.map(r => JSON.parse(r.body).data.email)).toEqual(['ada@example.com'])
  })

  test('a bad email is an error result for the model, nothing is kept, and the answer completes', async () => {
    const { tenant, agent } = await agentWith([{ type: 'lead_capture' }])
    model.fake.setBehaviour({ toolCalls: [{ name: 'lead_capture', arguments: { email: 'not-an-address' } }], replyFromTools: true, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'My email is not-an-address' }, tenant.headers)

    expect(res.status, res.text).toBe(200)
    expect(res.json.toolCalls[0]).toMatchObject({ tool: 'lead_capture', ok: false, error: expect.stringContaining('must be an email address') })
    expect(res.json.answer).toContain('must be an email address')
    expect((await call(leads.GET, '/api/leads', { headers: tenant.headers })).json.items).toEqual([])
  })
})

describe('saving built-in tools', () => {
  test('built-ins are answered as their type alone, and kept on PATCH', async () => {
    const { tenant, agent } = await agentWith([{ type: 'request_human' }, { type: 'lead_capture' }])
    expect(agent.tools).toEqual([{ type: 'request_human' }, { type: 'lead_capture' }])
    const patched = await call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'd', tools: [{ type: 'mark_as_resolved' }] }, params: { id: agent.id } })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.json.tools).toEqual([{ type: 'mark_as_resolved' }])
  })

  test('a second built-in of the same type is a 400, on create and on PATCH', async () => {
    const tenant = await createTenant()
    const twice = [{ type: 'request_human' }, { type: 'request_human' }]
    const created = await call(agentsRoute.POST, '/api/agents', { method: 'POST', headers: tenant.headers, body: { name: 'A', tools: twice } })
    expect(created.status).toBe(400)
    expect(JSON.stringify(created.json.error)).toContain('a built-in tool may be given once')
    const agent = await createAgentVia(tenant, {})
    const patched = await call(agentItem.PATCH, `/api/agents/${agent.id}`, { method: 'PATCH', headers: tenant.headers, body: { description: 'd', tools: twice }, params: { id: agent.id } })
    expect(patched.status).toBe(400)
  })

  test('an unknown tool type is a 400 naming the types', async () => {
    const tenant = await createTenant()
    const res = await call(agentsRoute.POST, '/api/agents', { method: 'POST', headers: tenant.headers, body: { name: 'A', tools: [{ type: 'form' }] } })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.json.error)).toContain('request_human')
  })
})
