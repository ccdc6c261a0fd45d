import { getConversation } from '@/lib/agents/conversation-views'
import { authenticate } from '@/lib/auth/tenant'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await getConversation(ctx, await parseId(params)))
  },
})
