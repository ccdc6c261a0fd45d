import { UsageReport } from '@/lib/domain/account'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { usageReport } from '@/lib/usage/usage-report'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/usage', {
  GET: endpoint({
    summary: "This month's usage and limits",
    access: { scope: 'agents:read' },
    response: UsageReport,
    handler: ({ ctx }) => usageReport(ctx),
  }),
})
