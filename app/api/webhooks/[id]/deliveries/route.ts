import { z } from 'zod'
import { DeliveryResource } from '@/lib/domain/webhooks'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { listDeliveries } from '@/lib/webhooks/endpoints'
import { DeliveryListParams } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/webhooks/{id}/deliveries', {
  GET: endpoint({
    summary: "A webhook's latest deliveries",
    access: { scope: 'admin' },
    query: DeliveryListParams,
    response: z.array(DeliveryResource),
    handler: ({ ctx, params, query }) => listDeliveries(ctx, params.id, query.limit),
  }),
})
