import { getDatabase, getPrisma } from '@/lib/db/client'
import { messageResource } from '@/lib/agents/conversation-views'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { votesOf } from '@/lib/feedback/feedback'
import { NotFound } from '@/lib/http/errors'
import { conversationEvents, conversationLeads } from '@/lib/support'
import { CONVERSATION_COLUMNS, summarise, type ConversationRow } from './list'
import type { ReviewedConversation, ReviewedMessage } from '@/lib/domain/inbox'

// A conversation as the inbox opens it (GET /api/conversations/{id}/messages): for its organization only, with each
// answer's sources, searched query, best score and the votes and comments it received.

type MessageRow = Awaited<ReturnType<typeof loadMessages>>[number]

export async function loadMessages(conversationIds: string[]) {
  const prisma = await getPrisma()
  return prisma.message.findMany({
    where: { conversationId: { in: conversationIds } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  })
}

export function toReviewed(m: MessageRow, votes: Map<string, { good: number; bad: number; comments: string[] }>): ReviewedMessage {
  return { ...messageResource(m, 'full'), votes: votes.get(m.id) ?? { good: 0, bad: 0, comments: [] } }
}

export async function conversationRows(organizationId: string, ids: string[]): Promise<ConversationRow[]> {
  const { sql } = await getDatabase()
  return sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS}
       FROM "Conversation" c JOIN "Agent" a ON a.id = c."agentId"
      WHERE c."organizationId" = $1 AND c.id = ANY($2::text[])`,
    [organizationId, ids],
  )
}

export async function reviewConversation(ctx: TenantContext, id: string): Promise<ReviewedConversation> {
  const [row] = await conversationRows(ctx.organizationId, [id])
  if (!row || !seesAgent(ctx, row.agentId)) throw new NotFound('Conversation')
  const [[summary], messages, events, leads] = await Promise.all([summarise([row]), loadMessages([id]), conversationEvents(id), conversationLeads(id)])
  const votes = await votesOf(messages.map(m => m.id))
  const { lastMessage: _last, ...fields } = summary
  return { ...fields, messages: messages.map(m => toReviewed(m, votes)), events, leads }
}
