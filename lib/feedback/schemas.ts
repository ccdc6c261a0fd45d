import { z } from 'zod'
import { IdParam } from '@/lib/http/body'
import type { Vote } from '@/lib/domain/inbox'

export { VOTES, type Vote, type FeedbackResource } from '@/lib/domain/inbox'

// Votes on an agent's answers (issue 14.6). Stored as Chaindesk named them: 'good' | 'bad'. 'up' and 'down' are
// accepted as the same votes, so a caller may write either.


const VoteValue = z
  .enum(['good', 'bad', 'up', 'down'])
  .transform((v): Vote => (v === 'up' ? 'good' : v === 'down' ? 'bad' : v))

const Comment = z.string().trim().max(2000).nullable().optional()
// the visitor of a public conversation (the id the query answered with): who votes, when no key or session does
const VisitorId = IdParam.optional()
// a verified visitor signs its vote as it signs its queries (issue 22): required on an agent that requires signed
// visitors and on a verified visitor's conversation
const VisitorSignature = z.string().max(128).optional()
const VisitorExpires = z.number().int().positive().max(1e11).optional()

/** POST /api/conversations/{id}/messages/{messageId}/feedback. `eval` (Chaindesk's field) may stand for `vote`. */
export const FeedbackBody = z
  .object({ vote: VoteValue.optional(), eval: VoteValue.optional(), comment: Comment, visitorId: VisitorId, visitorSignature: VisitorSignature, visitorExpires: VisitorExpires })
  .refine(b => b.vote !== undefined || b.eval !== undefined, { message: 'vote is required ("good" or "bad")', path: ['vote'] })
  .transform(b => ({ vote: (b.vote ?? b.eval) as Vote, comment: b.comment ?? null, visitorId: b.visitorId, visitorSignature: b.visitorSignature, visitorExpires: b.visitorExpires }))
export type FeedbackInput = z.infer<typeof FeedbackBody>

/** Chaindesk's POST /api/conversations/eval-answer: `{ messageId, visitorId?, eval: 'good' | 'bad' }`. */
export const EvalAnswerBody = z
  .object({ messageId: IdParam, eval: VoteValue, visitorId: VisitorId, comment: Comment, visitorSignature: VisitorSignature, visitorExpires: VisitorExpires })
  .transform(b => ({ messageId: b.messageId, vote: b.eval, comment: b.comment ?? null, visitorId: b.visitorId, visitorSignature: b.visitorSignature, visitorExpires: b.visitorExpires }))

