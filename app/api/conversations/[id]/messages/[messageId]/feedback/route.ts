import { FeedbackResource } from '@/lib/domain/inbox'
import { recordFeedback, VOTER_RULES } from '@/lib/feedback/feedback'
import { FeedbackBody } from '@/lib/feedback/schemas'
import { endpoint, endpoints, reply } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}/messages/{messageId}/feedback', {
  POST: endpoint({
    summary: 'Vote on an answer: thumbs up (`good`) or down (`bad`), with an optional comment',
    description: `${VOTER_RULES} \`up\`/\`down\` and Chaindesk's field \`eval\` are accepted too.`,
    access: { scope: 'conversations:write', anonymous: 'conversation' },
    body: FeedbackBody,
    response: FeedbackResource,
    status: 201,
    handler: async ({ ctx, params, body }) => {
      const { feedback, created } = await recordFeedback(ctx, { conversationId: params.id, messageId: params.messageId }, body)
      return reply(feedback, created ? 201 : 200)
    },
  }),
})
