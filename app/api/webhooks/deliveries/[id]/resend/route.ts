import { DeliveryResource } from '@/lib/domain/webhooks'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { resendDelivery } from '@/lib/webhooks/endpoints'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/webhooks/deliveries/{id}/resend', {
  // "send again": the delivery is queued anew, due now
  POST: endpoint({
    summary: 'Send a delivery again (queued, due now)',
    access: { scope: 'admin' },
    response: DeliveryResource,
    status: 202,
    handler: ({ ctx, params }) => resendDelivery(ctx, params.id),
  }),
})
