import { authenticate } from '@/lib/auth/tenant'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { listDeliveries } from '@/lib/webhooks/endpoints'
import { DeliveryListParams } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const { limit } = parseSearchParams(req, DeliveryListParams)
    return Response.json(await listDeliveries(ctx, id, limit))
  },
})
