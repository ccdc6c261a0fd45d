import { randomUUID } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'
import { newId } from '@/lib/db/ids'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import type { ConversationChannel } from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'
import { NotFound } from '@/lib/http/errors'
import { withParts, type StatementPart } from '@/lib/db/statement-parts'
import { modelTokensRecorded, type AgentQueryReservation } from '@/lib/usage/agent-queries'
import { queuedDeliveries, type EventToEmit } from '@/lib/webhooks'

// The rows every question writes (issue 28): its visitor, its conversation, the question and the answer, each with
// the webhook events it tells in the same statement (WITH … INSERT), so a question costs the database a few
// exchanges instead of a dozen (Prisma's transaction alone was four, and each event re-read its row). Plain SQL on the
// question's path: Prisma's query building was a tenth of the web side's CPU a question. Timestamps are written as
// UTC digits, as Prisma writes them (the columns have no time zone), from this clock, so the order of a
// conversation's messages is the order in which this process stored them.

/** The conversation a message belongs to, as the webhook events name it. */
export interface ConversationRef {
  id: string
  organizationId: string
  agentId: string
}

const now = () => new Date().toISOString()

/** A new visitor (visitorId null), or the one named, created under that id if new and seen now; another organization's is 404. */
export async function storeVisitor(organizationId: string, visitorId: string | null): Promise<string> {
  const { sql } = await getDatabase()
  if (!visitorId) {
    const id = randomUUID()
    await sql.query(`INSERT INTO "Visitor" (id, "organizationId", "createdAt", "lastSeenAt") VALUES ($1, $2, $3::timestamp, $3::timestamp)`, [id, organizationId, now()])
    return id
  }
  // an upsert: two first queries of a new visitor may arrive together
  const [visitor] = await sql.query<{ organizationId: string }>(
    `INSERT INTO "Visitor" (id, "organizationId", "createdAt", "lastSeenAt") VALUES ($1, $2, $3::timestamp, $3::timestamp)
     ON CONFLICT (id) DO UPDATE SET "lastSeenAt" = EXCLUDED."lastSeenAt" RETURNING "organizationId"`,
    [visitorId, organizationId, now()],
  )
  if (visitor.organizationId !== organizationId) throw new NotFound('Visitor')
  return visitorId
}

/**
 * Inserts the conversation under `id` unless a conversation has that id already (then nothing is written, and
 * false comes back), with its `conversation.created` event.
 */
export async function insertConversation(c: ConversationRef & { visitorId: string; channel: ConversationChannel; title: string }): Promise<boolean> {
  const { sql } = await getDatabase()
  const event: EventToEmit = { event: 'conversation.created', data: { conversationId: c.id, agentId: c.agentId, visitorId: c.visitorId, channel: c.channel } }
  const { ctes, params } = withParts([c.id, c.organizationId, c.agentId, c.visitorId, c.channel, c.title, now()], {
    queued: queuedDeliveries(c.organizationId, [event], 'EXISTS (SELECT 1 FROM started)'),
  })
  const rows = await sql.query(
    `WITH started AS (
       INSERT INTO "Conversation" (id, "organizationId", "agentId", "visitorId", channel, title, "createdAt", "updatedAt")
       VALUES ($1, $2, $3, $4, $5::"ConversationChannel", $6, $7::timestamp, $7::timestamp)
       ON CONFLICT (id) DO NOTHING RETURNING id
     ), ${ctes}
     SELECT id FROM started`,
    params,
  )
  return rows.length === 1
}

/** The visitor's question, with its `message.created` event. */
export async function insertQuestion(conversation: ConversationRef, text: string): Promise<string> {
  const { sql } = await getDatabase()
  const id = newId()
  const event: EventToEmit = { event: 'message.created', data: { messageId: id, conversationId: conversation.id, agentId: conversation.agentId, role: 'user', text } }
  const { ctes, params } = withParts([id, conversation.id, text, now()], { queued: queuedDeliveries(conversation.organizationId, [event]) })
  await sql.query(
    `WITH question AS (
       INSERT INTO "Message" (id, "conversationId", role, text, "createdAt") VALUES ($1, $2, 'user', $3, $4::timestamp) RETURNING id
     ), ${ctes}
     SELECT id FROM question`,
    params,
  )
  return id
}

/**
 * The question with what it needs that does not exist yet, in one statement with its events: its visitor (created,
 * or seen now; another organization's visitor is 404 and nothing is written) and, when `start` is given, the
 * conversation under `conversationId` (a fresh id: a chosen one goes through insertConversation, which may find it taken).
 * With `reserve` (a WITH query that returns a row when it counted the query: lib/usage/agent-queries.ts), every write
 * requires it: refused, nothing is written and `reserve.refused()` throws.
 */
export async function storeQuestion(q: {
  organizationId: string
  agentId: string
  visitorId: string | null
  conversationId: string
  start?: { channel: ConversationChannel; title: string }
  text: string
  reserve?: QueryCountingPart
}): Promise<{ visitorId: string; questionId: string }> {
  const { sql } = await getDatabase()
  const visitorId = q.visitorId ?? randomUUID()
  const questionId = newId()
  const events: EventToEmit[] = [
    ...(q.start ? [{ event: 'conversation.created', data: { conversationId: q.conversationId, agentId: q.agentId, visitorId, channel: q.start.channel } } as const] : []),
    { event: 'message.created', data: { messageId: questionId, conversationId: q.conversationId, agentId: q.agentId, role: 'user', text: q.text } },
  ]
  const started = q.start
    ? `started AS (
       INSERT INTO "Conversation" (id, "organizationId", "agentId", "visitorId", channel, title, "createdAt", "updatedAt")
       SELECT $4, $2, $7, visitor.id, $8::"ConversationChannel", $9, $3::timestamp, $3::timestamp FROM visitor RETURNING id
     ),`
    : ''
  // every parameter is used by the statement (PostgreSQL cannot type one it does not see): the conversation's last
  const own = [visitorId, q.organizationId, now(), q.conversationId, q.text, questionId, ...(q.start ? [q.agentId, q.start.channel, q.start.title] : [])]
  // the reservation first: a WITH query sees only those before it
  const { ctes: reserved, params: withReserved } = withParts(own, { reserved: q.reserve?.part })
  const { ctes, params } = withParts(withReserved, {
    queued: queuedDeliveries(q.organizationId, events, 'EXISTS (SELECT 1 FROM question)'),
  })
  const [row] = await sql.query<{ id: string | null; reserved: boolean }>(
    `WITH ${reserved ? `${reserved},` : ''} visitor AS (
       INSERT INTO "Visitor" (id, "organizationId", "createdAt", "lastSeenAt")
       SELECT $1, $2, $3::timestamp, $3::timestamp ${reserved ? 'WHERE EXISTS (SELECT 1 FROM reserved)' : ''}
       ON CONFLICT (id) DO UPDATE SET "lastSeenAt" = EXCLUDED."lastSeenAt" WHERE "Visitor"."organizationId" = EXCLUDED."organizationId"
       RETURNING id
     ), ${started} question AS (
       INSERT INTO "Message" (id, "conversationId", role, text, "createdAt")
       SELECT $6, ${q.start ? 'started.id' : '$4'}, 'user', $5, $3::timestamp FROM ${q.start ? 'started' : 'visitor'} RETURNING id
     ), ${ctes}
     SELECT (SELECT id FROM question) AS id, ${reserved ? 'EXISTS (SELECT 1 FROM reserved)' : 'true'} AS reserved`,
    params,
  )
  if (!row.reserved) return q.reserve!.refused()
  if (row.id === null) throw new NotFound('Visitor')
  return { visitorId, questionId }
}

/** The agent query's count as a WITH query `reserved` of the question's statement (storeQuestion), and its refusal. */
export interface QueryCountingPart {
  part: StatementPart
  refused: () => Promise<never>
}

export interface StoredAnswer {
  text: string
  sources: AnswerSource[]
  promptTokens?: number
  completionTokens?: number
  error?: string
  // the answer's retrieval (issue 13: lib/agents/retrieval.ts RetrievalRecord)
  searchQuery?: string | null
  topScore?: number | null
  noSources?: boolean
  /** The tool calls made while answering (issue 25). */
  toolCalls?: ToolCallRecord[]
}

/**
 * The answer, the conversation's updatedAt, the answer's `message.created` event and, given the query's
 * reservation, its tokens counted in the month's usage: one statement.
 */
export async function saveAnswer(conversation: ConversationRef, answer: StoredAnswer, tokensOf?: AgentQueryReservation): Promise<string> {
  const { sql } = await getDatabase()
  const id = newId()
  const event: EventToEmit = { event: 'message.created', data: { messageId: id, conversationId: conversation.id, agentId: conversation.agentId, role: 'assistant', text: answer.text } }
  const { ctes, params } = withParts(
    [
      id, conversation.id, answer.text, JSON.stringify(answer.sources), answer.promptTokens ?? null, answer.completionTokens ?? null,
      answer.error ?? null, answer.searchQuery ?? null, answer.topScore ?? null, answer.noSources ?? false, JSON.stringify(answer.toolCalls ?? []), now(),
    ],
    { queued: queuedDeliveries(conversation.organizationId, [event]), counted: tokensOf && modelTokensRecorded(tokensOf, answer) },
  )
  await sql.query(
    `WITH answer AS (
       INSERT INTO "Message" (id, "conversationId", role, text, sources, "promptTokens", "completionTokens", error, "searchQuery", "topScore", "noSources", "toolCalls", "createdAt")
       VALUES ($1, $2, 'assistant', $3, $4::jsonb, $5::int, $6::int, $7, $8, $9::float8, $10::boolean, $11::jsonb, $12::timestamp) RETURNING id
     ), touched AS (
       UPDATE "Conversation" SET "updatedAt" = $12::timestamp WHERE id = $2 RETURNING id
     ), ${ctes}
     SELECT id FROM answer`,
    params,
  )
  return id
}
