import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { ConversationChannel } from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'
import { NotFound } from '@/lib/http/errors'
import { countTokens } from '@/lib/ingest/tokenizer'
import type { HistoryMessage } from './prompt'

// Conversations of the query pipeline: which one a query continues, its visitor, its recent history, its messages.

export interface ConversationTarget {
  organizationId: string
  agentId: string
  /** Set when the query continues an existing conversation. */
  conversationId: string | null
  /** The visitor of the query: an existing one, one to create with this id, or null for a new one. */
  visitorId: string | null
  visitorExists: boolean
}

/**
 * Checks, without writing anything, what a query continues: a conversationId must be a conversation of this agent
 * (else 404, also when unknown), and a visitorId a visitor of the agent's organization, or a new id (then the
 * visitor is created with it, as Chaindesk's widget makes up its visitor ids) but never another organization's.
 */
export async function resolveConversationTarget(input: {
  organizationId: string
  agentId: string
  conversationId?: string
  visitorId?: string
}): Promise<ConversationTarget> {
  const prisma = await getPrisma()
  let visitorId = input.visitorId ?? null
  if (input.conversationId) {
    const conversation = await prisma.conversation.findFirst({
      where: { id: input.conversationId, agentId: input.agentId, organizationId: input.organizationId },
      select: { id: true, visitorId: true },
    })
    // a conversation is continued by its own visitor only
    if (!conversation || (visitorId && conversation.visitorId && conversation.visitorId !== visitorId)) {
      throw new NotFound('Conversation')
    }
    visitorId ??= conversation.visitorId
  }
  let visitorExists = false
  if (visitorId) {
    const visitor = await prisma.visitor.findUnique({ where: { id: visitorId }, select: { organizationId: true } })
    if (visitor && visitor.organizationId !== input.organizationId) throw new NotFound('Visitor')
    visitorExists = visitor !== null
  }
  return { organizationId: input.organizationId, agentId: input.agentId, conversationId: input.conversationId ?? null, visitorId, visitorExists }
}

/** Creates what the target lacks (visitor, conversation) and stores the question. */
export async function openConversation(
  target: ConversationTarget,
  question: { text: string; channel: ConversationChannel },
): Promise<{ conversationId: string; visitorId: string; questionId: string }> {
  const prisma = await getPrisma()
  let visitorId = target.visitorId
  if (!visitorId) {
    visitorId = (await prisma.visitor.create({ data: { organizationId: target.organizationId }, select: { id: true } })).id
  } else {
    // upsert: two first queries of a new visitor may arrive together
    const visitor = await prisma.visitor.upsert({
      where: { id: visitorId },
      create: { id: visitorId, organizationId: target.organizationId },
      update: { lastSeenAt: new Date() },
      select: { organizationId: true },
    })
    if (visitor.organizationId !== target.organizationId) throw new NotFound('Visitor')
  }
  let conversationId = target.conversationId
  if (!conversationId) {
    const conversation = await prisma.conversation.create({
      data: {
        organizationId: target.organizationId,
        agentId: target.agentId,
        visitorId,
        channel: question.channel,
        title: question.text.slice(0, 120),
      },
      select: { id: true },
    })
    conversationId = conversation.id
  }
  const message = await prisma.message.create({
    data: { conversationId, role: 'user', text: question.text },
    select: { id: true },
  })
  return { conversationId, visitorId, questionId: message.id }
}

/**
 * The latest messages before `beforeMessageId`, oldest first, as many as fit in AGENT_HISTORY_TOKENS. Failed answers
 * are left out.
 */
export async function recentHistory(conversationId: string, beforeMessageId: string): Promise<HistoryMessage[]> {
  const budget = config().AGENT_HISTORY_TOKENS
  if (budget === 0) return []
  const prisma = await getPrisma()
  const messages = await prisma.message.findMany({
    where: { conversationId, error: null, id: { not: beforeMessageId } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 50,
    select: { role: true, text: true },
  })
  const kept: HistoryMessage[] = []
  let used = 0
  for (const message of messages) {
    used += countTokens(message.text) + 4 // role and separators
    if (used > budget) break
    kept.push({ role: message.role, text: message.text })
  }
  return kept.reverse()
}

export async function saveAnswer(
  conversationId: string,
  answer: { text: string; sources: AnswerSource[]; promptTokens?: number; completionTokens?: number; error?: string },
): Promise<string> {
  const prisma = await getPrisma()
  const [message] = await prisma.$transaction([
    prisma.message.create({
      data: {
        conversationId,
        role: 'assistant',
        text: answer.text,
        sources: answer.sources as object[],
        promptTokens: answer.promptTokens ?? null,
        completionTokens: answer.completionTokens ?? null,
        error: answer.error ?? null,
      },
      select: { id: true },
    }),
    prisma.conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() }, select: { id: true } }),
  ])
  return message.id
}
