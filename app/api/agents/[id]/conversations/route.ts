import { z } from 'zod'
import { listConversations } from '@/lib/agents/conversation-views'
import { authenticate } from '@/lib/auth/tenant'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

const ListParams = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) })

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const { limit } = parseSearchParams(req, ListParams)
    return Response.json(await listConversations(ctx, id, limit))
  },
})
