import { authenticate } from '@/lib/auth/tenant'
import { parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { exportConversations } from '@/lib/inbox/export'
import { InboxExportParams } from '@/lib/inbox/filters'

const CONTENT_TYPES = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' }

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the filtered conversations with their messages, as JSONL (one conversation a line) or CSV (one message a line)
  GET: async req => {
    const ctx = await authenticate(req)
    const { format, ...filters } = parseSearchParams(req, InboxExportParams)
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
    return new Response(body, { headers: { 'content-type': CONTENT_TYPES[format], 'content-disposition': `attachment; filename="${filename}"` } })
  },
})
