import { endpoint, endpoints } from '@/lib/api/endpoint'
import { mayReadHealthDetails } from '@/lib/auth/health-access'
import { HealthReport } from '@/lib/domain/service'
import { serviceHealth } from '@/lib/health'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/health', {
  GET: endpoint({
    summary: 'Liveness and database check (the details with a key, a session, or ?deep=1 and METRICS_TOKEN; ?deep=1 also probes the model server and the workers)',
    access: 'public',
    response: HealthReport,
    handler: async ({ req }) => serviceHealth({ detailed: await mayReadHealthDetails(req), deep: new URL(req.url).searchParams.get('deep') === '1' }),
  }),
})
