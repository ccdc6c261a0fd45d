import { endpoint, endpoints } from '@/lib/api/endpoint'
import { SystemOverview } from '@/lib/domain/system'
import { systemOverview } from '@/lib/system/overview'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/system', {
  GET: endpoint({
    summary: "The organization's operations at a glance: queue, failures in the last hour, answer latency, tokens today",
    tag: 'Service',
    access: { scope: 'admin' },
    response: SystemOverview,
    handler: ({ ctx }) => systemOverview(ctx),
  }),
})
