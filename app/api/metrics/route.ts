import { endpoint, endpoints } from '@/lib/api/endpoint'
import { NotFound, Unauthorized } from '@/lib/http/errors'
import { metricsEnabled, metricsText, metricsTokenAccepted } from '@/lib/metrics/exposition'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/metrics', {
  GET: endpoint({
    summary: "This process's metrics in Prometheus text format",
    description: 'Authorization: Bearer $METRICS_TOKEN (not an API key). 404 while METRICS_TOKEN is unset. Each process (web or worker) answers its own.',
    tag: 'Service',
    access: 'public',
    download: { mediaTypes: ['text/plain; version=0.0.4'], description: 'Prometheus text exposition format' },
    handler: async ({ req }) => {
      if (!metricsEnabled()) throw new NotFound('API endpoint /api/metrics')
      if (!metricsTokenAccepted(req.headers.get('authorization'))) throw new Unauthorized('Send "Authorization: Bearer <METRICS_TOKEN>"')
      const { contentType, text } = await metricsText()
      return new Response(text, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } })
    },
  }),
})
