import { FeedbackResource } from '@/lib/domain/inbox'
import { recordFeedback, VOTER_RULES } from '@/lib/feedback/feedback'
import { EvalAnswerBody } from '@/lib/feedback/schemas'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/eval-answer', {
  POST: endpoint({
    summary: "Chaindesk's vote on an answer: `{messageId, visitorId?, eval: 'good' | 'bad'}`",
    description: VOTER_RULES,
    access: { scope: 'conversations:write', anonymous: 'conversation' },
    body: EvalAnswerBody,
    response: FeedbackResource,
    handler: async ({ ctx, body: { messageId, ...vote } }) => (await recordFeedback(ctx, { messageId }, vote)).feedback,
  }),
})
