import { getPrisma } from '@/lib/db/client'
import type { ConversationDetail, ConversationSummary } from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'
import type { TenantContext } from '@/lib/domain/tenant'
import { NotFound } from '@/lib/http/errors'
import { findAgent } from './agents'

// Conversations as the dashboard reads them (lib/domain/agents.ts): the list of an agent's, and one with its messages.

const PREVIEW_LENGTH = 160

/** The agent's conversations, most recently active first. */
export async function listConversations(ctx: TenantContext, agentId: string, limit: number): Promise<ConversationSummary[]> {
  await findAgent(ctx, agentId)
  const prisma = await getPrisma()
  const conversations = await prisma.conversation.findMany({
    where: { agentId, organizationId: ctx.organizationId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit,
    include: {
      _count: { select: { messages: true } },
      messages: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1, select: { role: true, text: true, error: true, createdAt: true } },
    },
  })
  return conversations.map(c => {
    const last = c.messages[0]
    return {
      id: c.id,
      agentId: c.agentId,
      visitorId: c.visitorId,
      channel: c.channel,
      title: c.title,
      messageCount: c._count.messages,
      lastMessage: last
        ? { role: last.role, preview: (last.text || last.error || '').slice(0, PREVIEW_LENGTH), createdAt: last.createdAt.toISOString() }
        : null,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    }
  })
}

export async function getConversation(ctx: TenantContext, id: string): Promise<ConversationDetail> {
  const prisma = await getPrisma()
  const c = await prisma.conversation.findFirst({
    where: { id, organizationId: ctx.organizationId },
    include: { messages: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  })
  if (!c) throw new NotFound('Conversation')
  return {
    id: c.id,
    agentId: c.agentId,
    visitorId: c.visitorId,
    channel: c.channel,
    title: c.title,
    messageCount: c.messages.length,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    messages: c.messages.map(m => ({
      id: m.id,
      role: m.role,
      text: m.text,
      sources: Array.isArray(m.sources) ? (m.sources as unknown as AnswerSource[]) : [],
      promptTokens: m.promptTokens,
      completionTokens: m.completionTokens,
      error: m.error,
      createdAt: m.createdAt.toISOString(),
    })),
  }
}
