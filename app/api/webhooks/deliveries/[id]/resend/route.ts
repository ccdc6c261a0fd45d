import { authenticate } from '@/lib/auth/tenant'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { resendDelivery } from '@/lib/webhooks/endpoints'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // "send again": the delivery is queued anew, due now
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await resendDelivery(ctx, await parseId(params)), { status: 202 })
  },
})
