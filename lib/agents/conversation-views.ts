import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { Prisma } from '@/lib/generated/prisma/client'
import type { ConversationDetail, ConversationMessage, ConversationSummary, SourcesVisibility } from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { NotFound, Unauthorized } from '@/lib/http/errors'
import { findAgent } from './agents'
import { sourcesVisibilityFor, visibleSources } from './appearance'
import { awaitsApproval } from './approvals'
import { VISITOR_APOLOGY } from './model-failure'
import { STOPPED_MESSAGE } from '@/lib/domain/answer-events'

// Conversations as callers read them (lib/domain/agents.ts): an agent's, the organization's (newest first, a page at
// a time), and one with its messages, which a public agent's conversation shows to anyone holding its id.

const PREVIEW_LENGTH = 160
const CHAINDESK_PAGE = 50

const SUMMARY_INCLUDE = {
  _count: { select: { messages: true } },
  messages: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1, select: { role: true, text: true, error: true, createdAt: true } },
} satisfies Prisma.ConversationInclude

type SummaryRow = Prisma.ConversationGetPayload<{ include: typeof SUMMARY_INCLUDE }>

type ConversationRow = Prisma.ConversationGetPayload<object>

/** Chaindesk's name of a message's role. */
const fromOf = (role: 'user' | 'assistant') => (role === 'user' ? 'human' : 'agent')

/** What every view of a conversation shows of it; whom it is assigned to only to its organization (issue 23). */
function conversationFields(c: ConversationRow, messageCount: number, member = true) {
  const { id, agentId, visitorId, verifiedVisitorId, channel, title, status, isAiEnabled, priority } = c
  const support = { status, isAiEnabled, priority, assigneeId: member ? c.assigneeId : null, resolvedAt: c.resolvedAt?.toISOString() ?? null }
  return { id, agentId, visitorId, verifiedVisitorId, channel, title, messageCount, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(), ...support }
}

function toSummary(c: SummaryRow): ConversationSummary {
  const last = c.messages[0]
  return {
    ...conversationFields(c, c._count.messages),
    lastMessage: last ? { role: last.role, from: fromOf(last.role), preview: (last.text || last.error || '').slice(0, PREVIEW_LENGTH), createdAt: last.createdAt.toISOString() } : null,
  }
}

/** The agent's conversations, most recently active first. */
export async function listConversations(ctx: TenantContext, agentId: string, limit: number): Promise<ConversationSummary[]> {
  await findAgent(ctx, agentId)
  const prisma = await getPrisma()
  const conversations = await prisma.conversation.findMany({
    where: { agentId, organizationId: ctx.organizationId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: limit,
    include: SUMMARY_INCLUDE,
  })
  return conversations.map(toSummary)
}

/**
 * A conversation with its messages, for a caller of its organization; or, when its agent is public and
 * PUBLIC_CONVERSATION_READ is on, for anyone (Chaindesk's widget reloads its history without a key: the id, random
 * and known only to the visitor's browser, is the credential). `ctx` is null for a caller without credentials.
 * `chaindeskCursor` (the `?cursor=` of Chaindesk's widget, "" for the first page) asks for its paging: newest first.
 */
export async function getConversation(ctx: TenantContext | null, id: string, chaindeskCursor?: string): Promise<ConversationDetail> {
  const prisma = await getPrisma()
  const c = await prisma.conversation.findUnique({
    where: { id },
    include: { agent: { select: { visibility: true, appearance: true } }, leads: { orderBy: { createdAt: 'desc' }, take: 1, select: { email: true } } },
  })
  // a key limited to some agents is not a member for the others' conversations (404, as another organization's)
  const member = c !== null && c.organizationId === ctx?.organizationId && seesAgent(ctx, c.agentId)
  const readable = member || (c?.agent.visibility === 'public' && config().PUBLIC_CONVERSATION_READ)
  if (!c || !readable) {
    if (ctx) throw new NotFound('Conversation')
    throw new Unauthorized()
  }
  const newestFirst = chaindeskCursor !== undefined
  const [messages, awaitingApproval] = await Promise.all([
    prisma.message.findMany({
      where: { conversationId: c.id },
      orderBy: newestFirst ? [{ createdAt: 'desc' }, { id: 'desc' }] : [{ createdAt: 'asc' }, { id: 'asc' }],
      ...(newestFirst ? { take: CHAINDESK_PAGE, ...(chaindeskCursor ? { cursor: { id: chaindeskCursor }, skip: 1 } : {}) } : {}),
    }),
    awaitsApproval(c.id),
  ])
  const count = newestFirst ? await prisma.message.count({ where: { conversationId: c.id } }) : messages.length
  // a key-less reader holds the conversation's id, not its visitor's: the visitor ids (with which one could vote or
  // continue as that visitor) are for the organization only (issue 22)
  const { visitorId, verifiedVisitorId, ...fields } = conversationFields(c, count, member)
  return {
    ...(member ? { visitorId, verifiedVisitorId } : {}),
    ...fields,
    lead: c.leads[0] ?? null,
    awaitingApproval,
    // a visitor sees the sources the agent shows (issue 14)
    messages: messages.map(m => messageResource(m, sourcesVisibilityFor(member, c.agent.appearance), member)),
  }
}

/**
 * A stored message as the API answers it, its sources as `shown` (the conversation read, the inbox); a failed
 * answer's cause is the operator's to read (issue 22): a visitor reads an apology, a stopped answer says so to anyone.
 */
export function messageResource(m: Prisma.MessageGetPayload<object>, shown: SourcesVisibility, member = true): ConversationMessage {
  const toolCalls = Array.isArray(m.toolCalls) ? (m.toolCalls as unknown as ToolCallRecord[]) : []
  return {
    id: m.id,
    role: m.role,
    from: fromOf(m.role),
    text: m.text,
    sources: visibleSources(Array.isArray(m.sources) ? (m.sources as unknown as AnswerSource[]) : [], shown),
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    // a failed answer's cause is the operator's to read (issue 22); a stopped answer says so to anyone
    error: m.error && !member && m.error !== STOPPED_MESSAGE ? VISITOR_APOLOGY : m.error,
    searchQuery: m.searchQuery,
    topScore: m.topScore,
    noSources: m.noSources,
    // the organization sees what the agent's tools were asked and answered; a visitor does not (issue 25)
    ...(member && toolCalls.length ? { toolCalls } : {}),
    operatorName: m.operatorName,
    createdAt: m.createdAt.toISOString(),
  }
}
