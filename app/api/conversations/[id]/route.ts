import { ConversationReadParams } from '@/lib/agents/agent-schemas'
import { getConversation } from '@/lib/agents/conversation-views'
import { identify } from '@/lib/auth/tenant'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the organization's conversation, or a public agent's for anyone holding its id (PUBLIC_CONVERSATION_READ)
  GET: async (req, { params }) => {
    const id = await parseId(params)
    const { cursor } = parseSearchParams(req, ConversationReadParams)
    return Response.json(await getConversation(await identify(req), id, cursor))
  },
})
