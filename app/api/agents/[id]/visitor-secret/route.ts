import { rotateVisitorSecret } from '@/lib/agents/visitor-signature'
import { VisitorSecret } from '@/lib/domain/agents'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/agents/{id}/visitor-secret', {
  POST: endpoint({
    summary: 'A new visitor signing secret (answered this once; the previous one stops verifying)',
    description:
      'The site signs its visitor ids with it: hex HMAC-SHA256 of "<visitorId>.<expires>" (Unix seconds), sent as visitorId, visitorSignature and visitorExpires in the query body.',
    access: { scope: 'agents:write' },
    response: VisitorSecret,
    status: 201,
    handler: ({ ctx, params }) => rotateVisitorSecret(ctx, params.id),
  }),
})
