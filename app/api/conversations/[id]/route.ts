import { ConversationReadParams } from '@/lib/agents/agent-schemas'
import { getConversation } from '@/lib/agents/conversation-views'
import { ConversationDetail, ConversationState } from '@/lib/domain/agents'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { updateConversationState } from '@/lib/support'
import { ConversationUpdateBody } from '@/lib/support/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/{id}', {
  GET: endpoint({
    summary: "A conversation with its messages (a public agent's without a key, unless PUBLIC_CONVERSATION_READ=0)",
    access: { scope: 'conversations:read', anonymous: 'conversation' },
    query: ConversationReadParams,
    response: ConversationDetail,
    handler: ({ ctx, params, query }) => getConversation(ctx, params.id, query.cursor),
  }),
  // Chaindesk's widget: "Request Human" and "Mark As Resolved" send {status} without a key (issue 23)
  PATCH: endpoint({
    summary: "Change a conversation's support state: status (a public agent's visitor, without a key: HUMAN_REQUESTED or RESOLVED only), isAiEnabled, assigneeId, priority",
    access: { scope: 'conversations:write', anonymous: 'conversation' },
    body: ConversationUpdateBody,
    response: ConversationState,
    handler: ({ ctx, params, body }) => updateConversationState(ctx, params.id, body),
  }),
})
