import { getDatabase } from '@/lib/db/client'
import type { TenantContext } from '@/lib/domain/tenant'
import { groupBySimilarQuestion } from './grouping'
import type { GapGroup, GapItem, GapListParams } from './schemas'
import { WEAK_TOP_SCORE, weakSql } from './weak'

// The knowledge-gap queue: answers whose retrieval found nothing or only weak matches (lib/gaps/weak.ts), and
// answers voted down, not yet dismissed or answered, grouped by similar question (lib/gaps/grouping.ts). Grouping
// reads the searched query (the standalone rewrite of a follow-up such as "and for kids?") when there is one, else
// the question as typed.

interface GapRow {
  messageId: string
  conversationId: string
  agentId: string
  agentName: string
  channel: string
  question: string | null
  searchQuery: string | null
  answer: string
  topScore: number | null
  noSources: boolean
  badVotes: string | number
  comments: string[] | null
  createdAt: Date | string
}

export async function listGaps(ctx: TenantContext, params: GapListParams): Promise<GapGroup[]> {
  const { sql } = await getDatabase()
  const rows = await sql.query<GapRow>(
    `SELECT a.id AS "messageId", a."conversationId", c."agentId", ag.name AS "agentName", c.channel::text AS channel,
            q.text AS question, a."searchQuery", a.text AS answer, a."topScore", a."noSources", a."createdAt",
            (SELECT count(*) FROM "MessageFeedback" f WHERE f."messageId" = a.id AND f.vote = 'bad') AS "badVotes",
            (SELECT array_agg(f.comment ORDER BY f."createdAt") FROM "MessageFeedback" f
              WHERE f."messageId" = a.id AND f.vote = 'bad' AND f.comment IS NOT NULL) AS comments
       FROM "Message" a
       JOIN "Conversation" c ON c.id = a."conversationId"
       JOIN "Agent" ag ON ag.id = c."agentId"
       LEFT JOIN LATERAL (
         SELECT u.text FROM "Message" u
          WHERE u."conversationId" = a."conversationId" AND u.role = 'user' AND u."createdAt" <= a."createdAt"
          ORDER BY u."createdAt" DESC, u.id DESC LIMIT 1) q ON true
      WHERE c."organizationId" = $1 AND ($2::text IS NULL OR c."agentId" = $2)
        AND ($4::text[] IS NULL OR c."agentId" = ANY($4::text[]))
        AND a.role = 'assistant' AND a.error IS NULL AND a."gapResolution" IS NULL
        AND (${weakSql('a')} OR EXISTS (SELECT 1 FROM "MessageFeedback" f WHERE f."messageId" = a.id AND f.vote = 'bad'))
      ORDER BY a."createdAt" DESC, a.id DESC
      LIMIT $3`,
    [ctx.organizationId, params.agentId ?? null, params.limit, ctx.grant?.agentIds ? [...ctx.grant.agentIds] : null],
  )
  const items = rows.map(toItem)
  const groups = groupBySimilarQuestion(items.map(item => ({ item, question: item.searchQuery || item.question })))
  return groups.map(({ key, items: members }) => {
    const list = members.map(m => m.item)
    return {
      key,
      question: list[0].question,
      count: list.length,
      reasons: {
        noSources: list.filter(i => i.noSources).length,
        weak: list.filter(i => !i.noSources && i.topScore !== null && i.topScore < WEAK_TOP_SCORE).length,
        votedDown: list.filter(i => i.badVotes > 0).length,
      },
      messageIds: list.map(i => i.messageId),
      items: list,
    }
  })
}

function toItem(r: GapRow): GapItem {
  return {
    messageId: r.messageId,
    conversationId: r.conversationId,
    agentId: r.agentId,
    agentName: r.agentName,
    channel: r.channel,
    question: r.question ?? r.searchQuery ?? '',
    searchQuery: r.searchQuery,
    answer: r.answer,
    topScore: r.topScore === null ? null : Number(r.topScore),
    noSources: r.noSources,
    badVotes: Number(r.badVotes),
    comments: r.comments ?? [],
    createdAt: new Date(r.createdAt).toISOString(),
  }
}
