import { authenticate } from '@/lib/auth/tenant'
import { listGaps } from '@/lib/gaps/queue'
import { GapListParams } from '@/lib/gaps/schemas'
import { parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the knowledge-gap queue: weak or voted-down answers, grouped by similar question
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listGaps(ctx, parseSearchParams(req, GapListParams)))
  },
})
