import { ConversationListParams } from '@/lib/agents/agent-schemas'
import { listOrganizationConversations } from '@/lib/agents/conversation-views'
import { authenticate } from '@/lib/auth/tenant'
import { parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the organization's conversations, newest first (Activepieces checks a key with this call)
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listOrganizationConversations(ctx, parseSearchParams(req, ConversationListParams)))
  },
})
