import { z } from 'zod'
import { IdParam } from '@/lib/http/body'

// The knowledge-gap queue's edge: GET /api/gaps, POST /api/gaps/dismiss, POST /api/gaps/answer.

export const GapListParams = z.object({
  agentId: IdParam.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
})
export type GapListParams = z.infer<typeof GapListParams>

const MessageIds = z.array(IdParam).min(1).max(1000)

export const GapDismissBody = z.object({ messageIds: MessageIds })

export const GapAnswerBody = z.object({
  messageIds: MessageIds,
  datastoreId: IdParam,
  question: z.string().trim().min(1).max(1000),
  answer: z.string().trim().min(1).max(20000),
})
export type GapAnswerBody = z.infer<typeof GapAnswerBody>

/** One answer in the queue. */
export interface GapItem {
  messageId: string
  conversationId: string
  agentId: string
  agentName: string
  channel: string
  /** The question as the visitor typed it. */
  question: string
  /** What retrieval searched for (the standalone rewrite of a follow-up), when recorded. */
  searchQuery: string | null
  answer: string
  topScore: number | null
  noSources: boolean
  badVotes: number
  comments: string[]
  createdAt: string
}

/** Answers to similar questions, newest first. */
export interface GapGroup {
  /** The normalised question the group is keyed by. */
  key: string
  /** The newest question of the group, as typed. */
  question: string
  count: number
  reasons: { noSources: number; weak: number; votedDown: number }
  messageIds: string[]
  items: GapItem[]
}
