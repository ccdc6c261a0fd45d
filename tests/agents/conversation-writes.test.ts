import { describe, expect, test } from 'vitest'
import { storeQuestion } from '@/lib/agents/conversation-writes'
import { getPrisma } from '@/lib/db/client'
import { NotFound } from '@/lib/http/errors'
import { createAgentVia } from '../helpers/agents'
import { createTenant } from '../helpers/tenants'

// The question's rows in one statement (issue 28): what resolveConversationTarget checked before can have changed
// since (two organizations' widgets inventing the same visitor id at once); the statement writes nothing then.

describe('storing a question', () => {
  test('a new visitor, a new conversation and the question together; a second question continues it', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const base = { organizationId: tenant.ctx.organizationId, agentId: agent.id, visitorId: null, conversationId: 'conv_0123456789abcdef' }
    const first = await storeQuestion({ ...base, start: { channel: 'website', title: 'Hello' }, text: 'Hello' })
    const second = await storeQuestion({ ...base, visitorId: first.visitorId, text: 'Again' })

    const prisma = await getPrisma()
    const conversation = await prisma.conversation.findUniqueOrThrow({ where: { id: base.conversationId }, include: { messages: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } })
    expect(conversation).toMatchObject({ organizationId: base.organizationId, agentId: agent.id, visitorId: first.visitorId, channel: 'website', title: 'Hello', status: 'UNRESOLVED', isAiEnabled: true })
    expect(conversation.messages.map(m => [m.id, m.role, m.text])).toEqual([[first.questionId, 'user', 'Hello'], [second.questionId, 'user', 'Again']])
    expect(await prisma.visitor.findUnique({ where: { id: first.visitorId } })).toMatchObject({ organizationId: base.organizationId })
  })

  test("another organization's visitor is 404 and nothing is written", async () => {
    const [a, b] = [await createTenant(), await createTenant()]
    const [agentA, agentB] = [await createAgentVia(a), await createAgentVia(b)]
    const taken = await storeQuestion({ organizationId: a.ctx.organizationId, agentId: agentA.id, visitorId: 'shared_visitor_id_42', conversationId: 'conv_a_0123456789', start: { channel: 'website', title: 'A' }, text: 'A' })
    const prisma = await getPrisma()
    const seen = (await prisma.visitor.findUniqueOrThrow({ where: { id: taken.visitorId } })).lastSeenAt

    const foreign = storeQuestion({ organizationId: b.ctx.organizationId, agentId: agentB.id, visitorId: 'shared_visitor_id_42', conversationId: 'conv_b_0123456789', start: { channel: 'website', title: 'B' }, text: 'B' })

    await expect(foreign).rejects.toBeInstanceOf(NotFound)
    expect(await prisma.conversation.count({ where: { organizationId: b.ctx.organizationId } })).toBe(0)
    expect(await prisma.message.count({ where: { conversationId: 'conv_b_0123456789' } })).toBe(0)
    expect((await prisma.visitor.findUniqueOrThrow({ where: { id: taken.visitorId } })).lastSeenAt).toEqual(seen)
    expect(await prisma.webhookDelivery.count({ where: { organizationId: b.ctx.organizationId } })).toBe(0)
  })
})
