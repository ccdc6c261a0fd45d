import { z } from 'zod'
import { AgentConversationListParams } from '@/lib/agents/agent-schemas'
import { listConversations } from '@/lib/agents/conversation-views'
import { ConversationSummary } from '@/lib/domain/agents'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}/conversations', {
  GET: endpoint({
    summary: "The agent's latest conversations",
    tag: 'Conversations',
    access: { scope: 'conversations:read' },
    query: AgentConversationListParams,
    response: z.array(ConversationSummary),
    handler: ({ ctx, params, query }) => listConversations(ctx, params.id, query.limit),
  }),
})
