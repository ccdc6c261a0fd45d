// The audit page's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, apiUrl, type RequestOf } from '@/components/api-client'

export type AuditFilterValues = Omit<NonNullable<RequestOf<'GET /api/audit-log'>['query']>, 'cursor' | 'limit'>

export const auditQueryKey = (filters: AuditFilterValues) => ['audit-log', filters] as const
export const fetchAuditPage = (filters: AuditFilterValues, cursor?: string) => api('GET /api/audit-log', { query: { ...filters, cursor, limit: 50 } })
export const auditExportHref = (filters: AuditFilterValues) => apiUrl('GET /api/audit-log/export', { query: filters })
