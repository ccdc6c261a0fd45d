import { getDatabase } from '@/lib/db/client'
import type { ConversationChannel, ConversationPriority, ConversationStatus } from '@/lib/domain/agents'
import type { TenantContext } from '@/lib/domain/tenant'
import { decodePageCursor, encodePageCursor } from '@/lib/http/page-cursor'
import { weakSql } from '@/lib/gaps/weak'
import { inboxWhere, type InboxListParams } from './filters'
import type { InboxConversation, InboxCounts, InboxPage } from '@/lib/domain/inbox'

// The conversation inbox: every conversation of the organization, most recently active first (updatedAt, then id,
// descending: the index Conversation(organizationId, updatedAt)), filtered, a page at a time with an opaque cursor.
// A conversation that gets a new message while someone pages moves to the top: it is seen on the next first page.

const PREVIEW_LENGTH = 160

export interface ConversationRow {
  id: string
  agentId: string
  agentName: string
  visitorId: string | null
  channel: ConversationChannel
  title: string | null
  status: ConversationStatus
  isAiEnabled: boolean
  assigneeId: string | null
  priority: ConversationPriority
  resolvedAt: Date | string | null
  createdAt: Date | string
  updatedAt: Date | string
}

/** The columns of a ConversationRow, on `c` joined with its agent `a`. */
export const CONVERSATION_COLUMNS = `c.id, c."agentId", a.name AS "agentName", c."visitorId", c.channel::text AS channel, c.title,
  c.status::text AS status, c."isAiEnabled", c."assigneeId", c.priority::text AS priority, c."resolvedAt", c."createdAt", c."updatedAt"`

interface StatsRow {
  conversationId: string
  messageCount: string | number
  good: string | number
  bad: string | number
  noSources: boolean
  weak: boolean
}

interface LastRow {
  conversationId: string
  role: 'user' | 'assistant'
  text: string
  error: string | null
  createdAt: Date | string
}

const iso = (d: Date | string) => new Date(d).toISOString()

/** How many conversations each status has under the other filters: the inbox's tabs (issue 23). */
async function countByStatus(ctx: TenantContext, filters: InboxListParams): Promise<InboxCounts> {
  const { sql } = await getDatabase()
  const where = inboxWhere(ctx.organizationId, { ...filters, status: undefined }, ctx.grant?.agentIds)
  const rows = await sql.query<{ status: ConversationStatus; n: string | number }>(
    `SELECT c.status::text AS status, count(*) AS n FROM "Conversation" c WHERE ${where.sql} GROUP BY c.status`,
    where.params,
  )
  const counts: InboxCounts = { all: 0, UNRESOLVED: 0, HUMAN_REQUESTED: 0, RESOLVED: 0 }
  for (const r of rows) {
    counts[r.status] = Number(r.n)
    counts.all += Number(r.n)
  }
  return counts
}

/** One page of the filtered conversations. */
export async function listInbox(ctx: TenantContext, params: InboxListParams): Promise<InboxPage> {
  const { sql } = await getDatabase()
  const where = inboxWhere(ctx.organizationId, params, ctx.grant?.agentIds)
  const args = [...where.params]
  let cursorSql = ''
  if (params.cursor) {
    const after = decodePageCursor(params.cursor)
    args.push(after.createdAt.toISOString(), after.id)
    cursorSql = ` AND (c."updatedAt", c.id) < ($${args.length - 1}::timestamp, $${args.length})`
  }
  args.push(params.limit + 1)
  const rows = await sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS}
       FROM "Conversation" c JOIN "Agent" a ON a.id = c."agentId"
      WHERE ${where.sql}${cursorSql}
      ORDER BY c."updatedAt" DESC, c.id DESC
      LIMIT $${args.length}`,
    args,
  )
  const page = rows.slice(0, params.limit)
  const last = page[page.length - 1]
  return {
    items: await summarise(page),
    counts: await countByStatus(ctx, params),
    nextCursor: rows.length > params.limit && last ? encodePageCursor({ createdAt: new Date(last.updatedAt), id: last.id }) : null,
  }
}

/** The page's conversations with their counts, votes, retrieval flags and last message (two queries for the page). */
export async function summarise(page: ConversationRow[]): Promise<InboxConversation[]> {
  if (page.length === 0) return []
  const { sql } = await getDatabase()
  const ids = page.map(c => c.id)
  const [stats, lasts] = await Promise.all([
    sql.query<StatsRow>(
      `SELECT m."conversationId", count(DISTINCT m.id) AS "messageCount",
              count(f.id) FILTER (WHERE f.vote = 'good') AS good, count(f.id) FILTER (WHERE f.vote = 'bad') AS bad,
              coalesce(bool_or(m.role = 'assistant' AND m."noSources"), false) AS "noSources",
              coalesce(bool_or(m.role = 'assistant' AND ${weakSql('m')}), false) AS weak
         FROM "Message" m LEFT JOIN "MessageFeedback" f ON f."messageId" = m.id
        WHERE m."conversationId" = ANY($1::text[]) GROUP BY m."conversationId"`,
      [ids],
    ),
    sql.query<LastRow>(
      `SELECT DISTINCT ON (m."conversationId") m."conversationId", m.role::text AS role, m.text, m.error, m."createdAt"
         FROM "Message" m WHERE m."conversationId" = ANY($1::text[])
        ORDER BY m."conversationId", m."createdAt" DESC, m.id DESC`,
      [ids],
    ),
  ])
  const statsOf = new Map(stats.map(s => [s.conversationId, s]))
  const lastOf = new Map(lasts.map(l => [l.conversationId, l]))
  return page.map(c => {
    const s = statsOf.get(c.id)
    const l = lastOf.get(c.id)
    return {
      id: c.id,
      agentId: c.agentId,
      agentName: c.agentName,
      visitorId: c.visitorId,
      channel: c.channel,
      title: c.title,
      messageCount: Number(s?.messageCount ?? 0),
      lastMessage: l ? { role: l.role, from: l.role === 'user' ? 'human' : 'agent', preview: (l.text || l.error || '').slice(0, PREVIEW_LENGTH), createdAt: iso(l.createdAt) } : null,
      createdAt: iso(c.createdAt),
      updatedAt: iso(c.updatedAt),
      status: c.status,
      isAiEnabled: c.isAiEnabled,
      assigneeId: c.assigneeId,
      priority: c.priority,
      resolvedAt: c.resolvedAt ? iso(c.resolvedAt) : null,
      votes: { good: Number(s?.good ?? 0), bad: Number(s?.bad ?? 0) },
      noSources: s?.noSources ?? false,
      weakSources: s?.weak ?? false,
    }
  })
}
