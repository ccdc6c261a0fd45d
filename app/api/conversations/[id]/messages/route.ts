import { ReviewedConversation } from '@/lib/domain/inbox'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { reviewConversation } from '@/lib/inbox/review'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}/messages', {
  GET: endpoint({
    summary: 'A conversation as the inbox opens it: messages with sources, searched query, best score and votes',
    access: { scope: 'conversations:read' },
    response: ReviewedConversation,
    handler: ({ ctx, params }) => reviewConversation(ctx, params.id),
  }),
})
