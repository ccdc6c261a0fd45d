import { randomUUID } from 'node:crypto'
import { config } from '@/lib/config'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { ConversationChannel } from '@/lib/domain/agents'
import { NotFound } from '@/lib/http/errors'
import { countTokens } from '@/lib/ingest/tokenizer'
import { insertConversation, insertQuestion, storeQuestion, storeVisitor, type QueryCountingPart } from './conversation-writes'
import type { HistoryMessage } from './prompt'

// Conversations of the query pipeline: which one a query continues, its visitor, its recent history, its messages.

export interface ConversationTarget {
  organizationId: string
  agentId: string
  /** Set when the query continues an existing conversation, or starts one under an id the client chose. */
  conversationId: string | null
  /** True when conversationId names no conversation yet: it is created under that id (Chaindesk's widget mints it). */
  adopt: boolean
  /** The visitor of the query: an existing one, one to create with this id, or null for a new one. */
  visitorId: string | null
  visitorExists: boolean
}

/**
 * An id a client may choose for a new conversation: long enough not to be guessed (a public agent's conversation is
 * readable by whoever holds its id), plain enough for a URL. A UUID, a cuid or a nanoid qualifies.
 */
const ADOPTABLE_ID = /^[A-Za-z0-9_-]{16,128}$/

/** Ids we mint: random, unguessable (122 random bits). */
export const newConversationId = () => randomUUID()

/**
 * What a query's checks read of the conversation it names and of its visitor (issue 28: one statement, where the
 * verified-visitor check, the handoff check and the target's checks each read the conversation before).
 */
export interface NamedConversation {
  conversation: { agentId: string; organizationId: string; visitorId: string | null; verifiedVisitorId: string | null; isAiEnabled: boolean } | null
  /** The organization of the query's visitor (the id it gives, else the conversation's visitor); null when there is none. */
  visitorOrganizationId: string | null
  /**
   * The conversation's latest messages before this query's question, newest first (at most HISTORY_READ), when it is
   * a conversation of the agent the query names: its history, read with it (recentHistory cuts it to the budget).
   */
  latestMessages: HistoryMessage[]
}

// Messages read for a conversation's history, the newest first, before the token budget cuts them
const HISTORY_READ = 50

/**
 * Reads the conversation `conversationId` names (if any), the visitor the query would run under, and, when the
 * conversation is one of `agent`'s, its latest messages (failed answers left out).
 */
export async function readNamedConversation(
  agent: { organizationId: string; agentId: string },
  conversationId: string | undefined,
  visitorId: string | undefined,
): Promise<NamedConversation> {
  if (!conversationId && !visitorId) return { conversation: null, visitorOrganizationId: null, latestMessages: [] }
  const { sql } = await getDatabase()
  const [row] = await sql.query<Omit<NamedConversation, 'latestMessages'> & { latestMessages: HistoryMessage[] | null }>(
    `SELECT (SELECT json_build_object('agentId', c."agentId", 'organizationId', c."organizationId", 'visitorId', c."visitorId",
                                      'verifiedVisitorId', c."verifiedVisitorId", 'isAiEnabled', c."isAiEnabled")
             FROM "Conversation" c WHERE c.id = $1) AS conversation,
            (SELECT v."organizationId" FROM "Visitor" v
             WHERE v.id = COALESCE($2, (SELECT c."visitorId" FROM "Conversation" c WHERE c.id = $1))) AS "visitorOrganizationId",
            (SELECT json_agg(json_build_object('role', m.role::text, 'text', m.text) ORDER BY m."createdAt" DESC, m.id DESC)
             FROM (SELECT m.role, m.text, m."createdAt", m.id FROM "Message" m
                   WHERE m."conversationId" = $1 AND m.error IS NULL
                     AND EXISTS (SELECT 1 FROM "Conversation" c WHERE c.id = $1 AND c."organizationId" = $3 AND c."agentId" = $4)
                   ORDER BY m."createdAt" DESC, m.id DESC LIMIT ${HISTORY_READ}) m) AS "latestMessages"`,
    [conversationId ?? null, visitorId ?? null, agent.organizationId, agent.agentId],
  )
  return { ...row, latestMessages: row.latestMessages ?? [] }
}

/**
 * Checks, without writing anything, what a query continues: a conversationId must be a conversation of this agent,
 * or a well-formed id of no conversation at all (then it is started under that id), else 404; a visitorId a visitor
 * of the agent's organization, or a new id (then the visitor is created with it, as Chaindesk's widget makes up its
 * visitor ids) but never another organization's. A conversation is continued by its own visitor only: a member of
 * the organization naming another visitor gets 404 (leaving visitorId out continues it as its visitor); a public
 * caller who is not its visitor (visitorId left out or another one) starts a new conversation instead (issue 22),
 * so that nobody joins a stranger's conversation or learns its visitor's id. `named`: what readNamedConversation
 * read for this query, else it is read here.
 */
export async function resolveConversationTarget(
  input: {
    organizationId: string
    agentId: string
    conversationId?: string
    visitorId?: string
    /** The caller belongs to the agent's organization (an API key, the dashboard). */
    member: boolean
  },
  named?: NamedConversation,
): Promise<ConversationTarget> {
  const { conversation, visitorOrganizationId } = named ?? (await readNamedConversation(input, input.conversationId, input.visitorId))
  let visitorId = input.visitorId ?? null
  let adopt = false
  let conversationId = input.conversationId ?? null
  if (input.conversationId) {
    if (!conversation) {
      if (!ADOPTABLE_ID.test(input.conversationId)) throw new NotFound('Conversation')
      adopt = true
    } else if (conversation.agentId !== input.agentId || conversation.organizationId !== input.organizationId) {
      throw new NotFound('Conversation')
    } else if (conversation.visitorId && conversation.visitorId !== visitorId) {
      if (!input.member) conversationId = null
      else if (visitorId) throw new NotFound('Conversation')
      else visitorId = conversation.visitorId
    }
  }
  // the visitor read is the query's own, else the conversation's (the one a member continues as)
  if (visitorId && visitorOrganizationId && visitorOrganizationId !== input.organizationId) throw new NotFound('Visitor')
  const visitorExists = visitorId !== null && visitorOrganizationId !== null
  return { organizationId: input.organizationId, agentId: input.agentId, conversationId, adopt, visitorId, visitorExists }
}

/** The conversation a question went to, and the stored question. */
export interface OpenedConversation {
  conversationId: string
  visitorId: string
  questionId: string
  /** A conversation this query began: no history. */
  started: boolean
}

/**
 * Creates what the target lacks (visitor, conversation) and stores the question; with `reserve`, in the statement
 * that counts the query (storeQuestion: a refused query writes nothing), else the caller counted it before.
 */
export async function openConversation(target: ConversationTarget, question: { text: string; channel: ConversationChannel }, reserve?: QueryCountingPart): Promise<OpenedConversation> {
  const { organizationId, agentId } = target
  // a conversation the client named and that may exist already: the visitor, the conversation and the question in turn
  // (its query counted before: the caller passes no `reserve`)
  if (target.adopt) {
    if (reserve) throw new Error('a conversation adopted under a chosen id is counted before it is opened')
    const visitorId = await storeVisitor(organizationId, target.visitorId)
    const { id: conversationId, started } = await startConversation(target, visitorId, question)
    const questionId = await insertQuestion({ id: conversationId, organizationId, agentId }, question.text)
    return { conversationId, visitorId, questionId, started }
  }
  // otherwise one statement: a new conversation gets a fresh id, and an existing one was checked (resolveConversationTarget)
  const started = !target.conversationId
  const conversationId = target.conversationId ?? newConversationId()
  const start = started ? { channel: question.channel, title: question.text.slice(0, 120) } : undefined
  const { visitorId, questionId } = await storeQuestion({ organizationId, agentId, visitorId: target.visitorId, conversationId, start, text: question.text, reserve })
  return { conversationId, visitorId, questionId, started }
}

/**
 * A new conversation, under the id the client chose (target.adopt) or one we mint. Two first queries under one
 * chosen id may arrive together: the one that loses the insert continues the conversation when it is its own.
 */
async function startConversation(target: ConversationTarget, visitorId: string, question: { text: string; channel: ConversationChannel }) {
  const id = target.adopt && target.conversationId ? target.conversationId : newConversationId()
  const inserted = await insertConversation({ id, organizationId: target.organizationId, agentId: target.agentId, visitorId, channel: question.channel, title: question.text.slice(0, 120) })
  if (inserted) return { id, started: true }
  const prisma = await getPrisma()
  const existing = await prisma.conversation.findFirst({
    where: { id, agentId: target.agentId, organizationId: target.organizationId, visitorId },
    select: { id: true },
  })
  if (!existing) throw new NotFound('Conversation')
  return { id: existing.id, started: false }
}

/**
 * The latest messages before `beforeMessageId`, oldest first, as many as fit in AGENT_HISTORY_TOKENS. Failed answers
 * are left out.
 */
export async function recentHistory(conversationId: string, beforeMessageId: string): Promise<HistoryMessage[]> {
  if (config().AGENT_HISTORY_TOKENS === 0) return []
  const { sql } = await getDatabase()
  const messages = await sql.query<HistoryMessage>(
    `SELECT role::text AS role, text FROM "Message" WHERE "conversationId" = $1 AND error IS NULL AND id <> $2
      ORDER BY "createdAt" DESC, id DESC LIMIT ${HISTORY_READ}`,
    [conversationId, beforeMessageId],
  )
  return historyWithinBudget(messages)
}

/**
 * Messages (newest first, as recentHistory and readNamedConversation read them) kept while they fit in
 * AGENT_HISTORY_TOKENS, oldest first.
 */
export function historyWithinBudget(messages: HistoryMessage[]): HistoryMessage[] {
  const budget = config().AGENT_HISTORY_TOKENS
  const kept: HistoryMessage[] = []
  let used = 0
  for (const message of messages) {
    used += countTokens(message.text) + 4 // role and separators
    if (used > budget) break
    kept.push({ role: message.role, text: message.text })
  }
  return kept.reverse()
}

export { saveAnswer, type ConversationRef } from './conversation-writes'
