import { authenticate } from '@/lib/auth/tenant'
import { dismissGaps } from '@/lib/gaps/resolve'
import { GapDismissBody } from '@/lib/gaps/schemas'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: async req => {
    const ctx = await authenticate(req)
    const { messageIds } = await parseJson(req, GapDismissBody)
    return Response.json(await dismissGaps(ctx, messageIds))
  },
})
