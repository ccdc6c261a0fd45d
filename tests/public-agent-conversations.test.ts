import { beforeEach, describe, expect, test } from 'vitest'
import * as visitorSecret from '@/app/api/agents/[id]/visitor-secret/route'
import * as conversationRead from '@/app/api/conversations/[id]/route'
import * as feedback from '@/app/api/conversations/[id]/messages/[messageId]/feedback/route'
import { signVisitor } from '@/lib/agents/visitor-signature'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

// Issue 22, point 3: a public conversation belongs to its visitor. Nobody else continues it (a stranger starts a new
// one), a key-less read shows no visitor ids, votes on verified conversations need the signature, and a signature
// cannot be valid for years.

const model = useFakeModel()
beforeEach(() => {
  resetPublicQueryLimits()
  model.fake.setBehaviour({ reply: 'Hello.' })
})

// visitor ids are global: each test's own
const alice = () => `visitor-alice-${Math.random().toString(36).slice(2)}`
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * 86_400
const signed = (secret: string, visitorId: string, expires = inDays(1 / 24)) => ({ visitorId, visitorExpires: expires, visitorSignature: signVisitor(secret, visitorId, expires) })

async function signedAgent(tenant: TestTenant, body: Record<string, unknown> = {}) {
  const agent = await createAgentVia(tenant, { visibility: 'public', ...body })
  const res = await call(visitorSecret.POST, `/api/agents/${agent.id}/visitor-secret`, { method: 'POST', headers: tenant.headers, body: {}, params: { id: agent.id } })
  return { agent, secret: res.json.secret as string }
}

const readConversation = (id: string, headers: Record<string, string> = {}) => call(conversationRead.GET, `/api/conversations/${id}`, { headers, params: { id } })
const vote = (conversationId: string, messageId: string, body: Record<string, unknown>) =>
  call(feedback.POST, `/api/conversations/${conversationId}/messages/${messageId}/feedback`, { method: 'POST', body: { vote: 'bad', ...body }, params: { id: conversationId, messageId } })

describe("a public conversation is its visitor's", () => {
  test("leaving visitorId out does not join another visitor's conversation: a new one starts, under a new visitor", async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    const visitorId = alice()
    const first = await queryAgentVia(agent.id, { query: 'My order is 1234', visitorId })
    const joined = await queryAgentVia(agent.id, { query: 'What was my order?', conversationId: first.json.conversationId })
    expect(joined.status).toBe(200)
    expect(joined.json.conversationId).not.toBe(first.json.conversationId)
    expect(joined.json.visitorId).not.toBe(visitorId)
    expect(JSON.stringify(model.fake.chatRequests()[1])).not.toContain('1234')
  })

  test("naming another visitor's conversation with one's own visitorId starts a new conversation", async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    const visitorId = alice()
    const first = await queryAgentVia(agent.id, { query: 'Hi', visitorId })
    const other = await queryAgentVia(agent.id, { query: 'Hi', conversationId: first.json.conversationId, visitorId: 'visitor-mallory' })
    expect(other.status).toBe(200)
    expect(other.json.conversationId).not.toBe(first.json.conversationId)
    // and its own visitor still continues it
    const again = await queryAgentVia(agent.id, { query: 'Again', conversationId: first.json.conversationId, visitorId })
    expect(again.json.conversationId).toBe(first.json.conversationId)
  })

  test('a key of the organization continues any of its conversations', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    const first = await queryAgentVia(agent.id, { query: 'Hi', visitorId: alice() })
    const relayed = await queryAgentVia(agent.id, { query: 'Again', conversationId: first.json.conversationId }, owner.headers)
    expect(relayed.json.conversationId).toBe(first.json.conversationId)
  })

  test('a key-less read of a public conversation shows no visitor ids; the organization sees them', async () => {
    const owner = await createTenant()
    const { agent, secret } = await signedAgent(owner)
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })
    const anonymous = await readConversation(res.json.conversationId)
    expect(anonymous.status).toBe(200)
    expect(anonymous.json).not.toHaveProperty('visitorId')
    expect(anonymous.json).not.toHaveProperty('verifiedVisitorId')
    expect(anonymous.text).not.toContain('customer-42')
    expect(anonymous.text).not.toContain(res.json.visitorId)
    const member = await readConversation(res.json.conversationId, owner.headers)
    expect(member.json.verifiedVisitorId).toBe('customer-42')
  })

  test("a vote on a verified visitor's answer needs the visitor's signature, not only its id", async () => {
    const owner = await createTenant()
    const { agent, secret } = await signedAgent(owner, { requireSignedVisitors: true })
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })
    const { conversationId, messageId } = res.json
    const forged = await vote(conversationId, messageId, { visitorId: 'customer-42' })
    expect(forged.status).toBe(403)
    expectErrorBody(forged.json, 'visitor_not_verified')
    const recordId = await vote(conversationId, messageId, { visitorId: res.json.visitorId })
    expect(recordId.status).toBe(403)
    const genuine = await vote(conversationId, messageId, signed(secret, 'customer-42'))
    expect(genuine.status).toBe(201)
    const otherVisitor = await vote(conversationId, messageId, signed(secret, 'customer-43'))
    expect(otherVisitor.status).toBe(401)
  })

  test('a visitor signature valid for longer than VISITOR_TOKEN_MAX_DAYS is refused', async () => {
    const owner = await createTenant()
    const { agent, secret } = await signedAgent(owner)
    const year5138 = 99_999_999_999
    const far = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42', year5138) })
    expect(far.status).toBe(403)
    expect(far.json.error.details).toMatchObject({ reason: 'too_long' })
    expect((await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42', inDays(29)) })).status).toBe(200)
    process.env.VISITOR_TOKEN_MAX_DAYS = '1'
    try {
      expect((await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42', inDays(2)) })).status).toBe(403)
    } finally {
      delete process.env.VISITOR_TOKEN_MAX_DAYS
    }
  })
})
