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

export type { GapGroup, GapItem } from '@/lib/domain/inbox'
