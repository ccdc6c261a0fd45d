import { endpoint, endpoints } from '@/lib/api/endpoint'
import { EXPORT_MEDIA_TYPES, exportConversations } from '@/lib/inbox/export'
import { InboxExportParams } from '@/lib/inbox/filters'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/conversations/export', {
  GET: endpoint({
    summary: 'The filtered conversations with their messages: JSONL (one conversation a line) or CSV (one message a line)',
    access: { scope: 'conversations:read' },
    query: InboxExportParams,
    download: { mediaTypes: Object.values(EXPORT_MEDIA_TYPES), description: 'JSONL or CSV, as `format` asks, as an attachment' },
    handler: async ({ ctx, query: { format, ...filters } }) => {
      const lines = exportConversations(ctx, filters, format)
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
      const filename = `conversations-${new Date().toISOString().slice(0, 10)}.${format}`
      return new Response(body, { headers: { 'content-type': EXPORT_MEDIA_TYPES[format], 'content-disposition': `attachment; filename="${filename}"` } })
    },
  }),
})
