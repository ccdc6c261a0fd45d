import { ConversationReadParams } from '@/lib/agents/agent-schemas'
import { getConversation } from '@/lib/agents/conversation-views'
import { ConversationDetail } from '@/lib/domain/agents'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}', {
  GET: endpoint({
    summary: "A conversation with its messages (a public agent's without a key, unless PUBLIC_CONVERSATION_READ=0)",
    access: { scope: 'conversations:read', anonymous: 'conversation' },
    query: ConversationReadParams,
    response: ConversationDetail,
    handler: ({ ctx, params, query }) => getConversation(ctx, params.id, query.cursor),
  }),
})
