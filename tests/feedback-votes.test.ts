import { describe, expect, test } from 'vitest'
import * as evalAnswer from '@/app/api/conversations/eval-answer/route'
import * as feedback from '@/app/api/conversations/[id]/messages/[messageId]/feedback/route'
import * as usage from '@/app/api/usage/route'
import { getPrisma } from '@/lib/db/client'
import { recordFeedback } from '@/lib/feedback/feedback'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

useFakeModel()

function vote(conversationId: string, messageId: string, body: object, headers: Record<string, string> = {}) {
  return call(feedback.POST, `/api/conversations/${conversationId}/messages/${messageId}/feedback`, {
    method: 'POST',
    headers,
    body,
    params: { id: conversationId, messageId },
  })
}

/** A public agent's answer to an anonymous visitor: its conversation, visitor and message ids. */
async function publicAnswer(owner: TestTenant) {
  const agent = await createAgentVia(owner, { visibility: 'public' })
  const res = await queryAgentVia(agent.id, { query: 'How long is the warranty?' })
  expect(res.status).toBe(200)
  return { agentId: agent.id as string, conversationId: res.json.conversationId as string, visitorId: res.json.visitorId as string, messageId: res.json.messageId as string }
}

describe('feedback on answers', () => {
  test('a visitor votes once per answer, and a second vote changes the first', async () => {
    const owner = await createTenant()
    const a = await publicAnswer(owner)
    const first = await vote(a.conversationId, a.messageId, { vote: 'good', visitorId: a.visitorId })
    expect(first.status).toBe(201)
    expect(first.json).toMatchObject({ messageId: a.messageId, conversationId: a.conversationId, vote: 'good', comment: null })
    const changed = await vote(a.conversationId, a.messageId, { vote: 'down', comment: 'It is three years now', visitorId: a.visitorId })
    expect(changed.status).toBe(200)
    expect(changed.json).toMatchObject({ id: first.json.id, vote: 'bad', comment: 'It is three years now' })
    const prisma = await getPrisma()
    expect(await prisma.messageFeedback.count({ where: { messageId: a.messageId } })).toBe(1)
  })

  test('different voters each have their vote: the visitor, a dashboard user, an API key', async () => {
    const owner = await createTenant()
    const a = await publicAnswer(owner)
    expect((await vote(a.conversationId, a.messageId, { vote: 'good', visitorId: a.visitorId })).status).toBe(201)
    expect((await vote(a.conversationId, a.messageId, { vote: 'bad' }, owner.headers)).status).toBe(201)
    const prisma = await getPrisma()
    const keys = (await prisma.messageFeedback.findMany({ where: { messageId: a.messageId } })).map(f => f.voterKey).sort()
    expect(keys).toEqual([`api_key:${(owner.ctx.actor as { apiKeyId: string }).apiKeyId}`, `visitor:${a.visitorId}`])
    // a dashboard user (the playground, the inbox) votes as that user; with the visitor's id, as that visitor
    const { feedback: byUser } = await recordFeedback({ organizationId: owner.ctx.organizationId, actor: { type: 'user', userId: 'u1' } }, a, { vote: 'good', comment: null })
    expect(byUser.vote).toBe('good')
    const keysAfter = (await prisma.messageFeedback.findMany({ where: { messageId: a.messageId } })).map(f => f.voterKey)
    expect(keysAfter).toContain('user:u1')
    expect(keysAfter).toHaveLength(3)
  })

  test('foreign message ids are 404 (401 without credentials): unknown, another conversation, another visitor, another organization', async () => {
    const owner = await createTenant()
    const stranger = await createTenant()
    const a = await publicAnswer(owner)
    const b = await publicAnswer(owner)
    // with credentials: 404; without (a visitor): 401, as for reading a conversation
    expect((await vote(a.conversationId, 'clnotamessage000000000000', { vote: 'good' }, owner.headers)).status).toBe(404)
    expect((await vote(b.conversationId, a.messageId, { vote: 'good' }, owner.headers)).status).toBe(404)
    expect((await vote(a.conversationId, a.messageId, { vote: 'good' }, stranger.headers)).status).toBe(404)
    expect((await vote(a.conversationId, a.messageId, { vote: 'good', visitorId: a.visitorId }, stranger.headers)).status).toBe(201)
    expect((await vote(a.conversationId, 'clnotamessage000000000000', { vote: 'good', visitorId: a.visitorId })).status).toBe(401)
    expect((await vote(b.conversationId, a.messageId, { vote: 'good', visitorId: a.visitorId })).status).toBe(401)
    expect((await vote(a.conversationId, a.messageId, { vote: 'good', visitorId: b.visitorId })).status).toBe(401)
    expect((await vote(a.conversationId, a.messageId, { vote: 'good' })).status).toBe(401)
    const privateAgent = await createAgentVia(owner)
    const p = await queryAgentVia(privateAgent.id, { query: 'Hi' }, owner.headers)
    expect((await vote(p.json.conversationId, p.json.messageId, { vote: 'good', visitorId: p.json.visitorId })).status).toBe(401)
    const res = await vote(p.json.conversationId, p.json.messageId, { vote: 'good', visitorId: p.json.visitorId }, stranger.headers)
    expect(res.status).toBe(404)
    expect(res.json.error.code).toBe('not_found')
  })

  test('a bad vote value is a 400 naming the field; a question cannot be rated', async () => {
    const owner = await createTenant()
    const a = await publicAnswer(owner)
    const bad = await vote(a.conversationId, a.messageId, { vote: 'meh', visitorId: a.visitorId })
    expect(bad.status).toBe(400)
    const prisma = await getPrisma()
    const question = await prisma.message.findFirstOrThrow({ where: { conversationId: a.conversationId, role: 'user' } })
    expect((await vote(a.conversationId, question.id, { vote: 'good', visitorId: a.visitorId })).status).toBe(400)
  })

  test("Chaindesk's eval-answer shape records the same vote as the message's feedback route", async () => {
    const owner = await createTenant()
    const a = await publicAnswer(owner)
    const res = await call(evalAnswer.POST, '/api/conversations/eval-answer', { method: 'POST', body: { messageId: a.messageId, visitorId: a.visitorId, eval: 'bad' } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ messageId: a.messageId, vote: 'bad' })
    const again = await vote(a.conversationId, a.messageId, { eval: 'good', visitorId: a.visitorId })
    expect(again.status).toBe(200)
    expect(again.json.vote).toBe('good')
    const unknown = await call(evalAnswer.POST, '/api/conversations/eval-answer', { method: 'POST', headers: owner.headers, body: { messageId: 'nope-nope-nope', eval: 'good' } })
    expect(unknown.status).toBe(404)
  })

  test('a vote emits feedback.created to subscribed webhooks and counts in the month’s usage', async () => {
    const owner = await createTenant()
    const prisma = await getPrisma()
    await prisma.webhookEndpoint.create({
      data: { organizationId: owner.ctx.organizationId, url: 'http://127.0.0.1:9/hook', events: ['feedback.created'], secretCiphertext: 'x', secretPrefix: 'x' },
    })
    const a = await publicAnswer(owner)
    await vote(a.conversationId, a.messageId, { vote: 'bad', visitorId: a.visitorId })
    const deliveries = await prisma.webhookDelivery.findMany({ where: { organizationId: owner.ctx.organizationId, event: 'feedback.created' } })
    expect(deliveries).toHaveLength(1)
    const body = typeof deliveries[0].body === 'string' ? JSON.parse(deliveries[0].body) : (deliveries[0].body as any)
    expect(body.data).toMatchObject({ messageId: a.messageId, conversationId: a.conversationId, value: 'bad' })
    const report = await call(usage.GET, '/api/usage', { headers: owner.headers })
    expect(report.json.feedback).toEqual({ good: 0, bad: 1 })
  })
})
