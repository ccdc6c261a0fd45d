// The Leads page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, apiUrl } from '@/components/api-client'

export const fetchLeadsPage = (agentId: string | undefined, cursor?: string) => api('GET /api/leads', { query: { agentId, cursor, limit: 50 } })

export const leadsExportHref = (agentId: string | undefined) => apiUrl('GET /api/leads/export', { query: { agentId, format: 'csv' } })
