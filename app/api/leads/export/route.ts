import { endpoint, endpoints } from '@/lib/api/endpoint'
import { linesResponse } from '@/lib/http/lines'
import { exportLeads } from '@/lib/support'
import { LeadExportParams } from '@/lib/support/schemas'

const CSV = 'text/csv; charset=utf-8'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/leads/export', {
  GET: endpoint({
    summary: 'The leads as CSV (values a spreadsheet would run as formulas are prefixed with \')',
    tag: 'Conversations',
    access: { scope: 'conversations:read' },
    query: LeadExportParams,
    download: { mediaTypes: [CSV], description: 'CSV, one lead a line, as an attachment' },
    handler: async ({ ctx, query }) => linesResponse(exportLeads(ctx, query.agentId), { contentType: CSV, filename: `leads-${new Date().toISOString().slice(0, 10)}.csv` }),
  }),
})
