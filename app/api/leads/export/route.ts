import { endpoint, endpoints } from '@/lib/api/endpoint'
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
    handler: async ({ ctx, query }) => {
      const lines = exportLeads(ctx, query.agentId)
      const encoder = new TextEncoder()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next()
          if (next.done) controller.close()
          else controller.enqueue(encoder.encode(next.value))
        },
        async cancel() {
          await lines.return(undefined)
        },
      })
      const filename = `leads-${new Date().toISOString().slice(0, 10)}.csv`
      return new Response(body, { headers: { 'content-type': CSV, 'content-disposition': `attachment; filename="${filename}"` } })
    },
  }),
})
