import { DailyUsage } from '@/lib/domain/account'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { dailyUsage, DailyUsageParams } from '@/lib/usage/daily'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/usage/daily', {
  // for the organization, one agent or one channel
  GET: endpoint({
    summary: 'Questions, votes, tokens and datastore queries per day (30 days by default)',
    access: { scope: 'agents:read' },
    query: DailyUsageParams,
    response: DailyUsage,
    handler: ({ ctx, query }) => dailyUsage(ctx, query),
  }),
})
