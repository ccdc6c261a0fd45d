import { AuditFilters, exportAudit } from '@/lib/audit/list'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { linesResponse } from '@/lib/http/lines'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/audit-log/export', {
  GET: endpoint({
    summary: 'The filtered audit log as CSV',
    tag: 'Account',
    access: { scope: 'admin' },
    query: AuditFilters,
    download: { mediaTypes: ['text/csv; charset=utf-8'], description: 'One entry a line, as an attachment' },
    handler: async ({ ctx, query }) => linesResponse(exportAudit(ctx, query), { contentType: 'text/csv; charset=utf-8', filename: `audit-log-${new Date().toISOString().slice(0, 10)}.csv` }),
  }),
})
