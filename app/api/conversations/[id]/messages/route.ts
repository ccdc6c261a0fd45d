import { authenticate } from '@/lib/auth/tenant'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { reviewConversation } from '@/lib/inbox/review'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the conversation as the inbox opens it: messages with sources, searched query, best score and votes
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await reviewConversation(ctx, await parseId(params)))
  },
})
