import { AgentConversationListParams } from '@/lib/agents/agent-schemas'
import { listConversations } from '@/lib/agents/conversation-views'
import { authenticate } from '@/lib/auth/tenant'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const { limit } = parseSearchParams(req, AgentConversationListParams)
    return Response.json(await listConversations(ctx, id, limit))
  },
})
