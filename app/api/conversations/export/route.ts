import { endpoint, endpoints } from '@/lib/api/endpoint'
import { linesResponse } from '@/lib/http/lines'
import { EXPORT_MEDIA_TYPES, exportConversations } from '@/lib/inbox/export'
import { InboxExportParams } from '@/lib/inbox/filters'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/export', {
  GET: endpoint({
    summary: 'The filtered conversations with their messages: JSONL (one conversation a line) or CSV (one message a line)',
    access: { scope: 'conversations:read' },
    query: InboxExportParams,
    download: { mediaTypes: Object.values(EXPORT_MEDIA_TYPES), description: 'JSONL or CSV, as `format` asks, as an attachment' },
    handler: async ({ ctx, query: { format, ...filters } }) =>
      linesResponse(exportConversations(ctx, filters, format), { contentType: EXPORT_MEDIA_TYPES[format], filename: `conversations-${new Date().toISOString().slice(0, 10)}.${format}` }),
  }),
})
