import { attachmentHeader, readOriginal } from '@/lib/datastores/datasource-content'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources/{id}/original', {
  // 404 for another organization's datasource
  GET: endpoint({
    summary: 'Download the uploaded file or upserted text as stored (404 for a web page)',
    access: { scope: 'datastores:read' },
    download: { mediaTypes: ['application/octet-stream'], description: 'The original, with the media type it was uploaded with' },
    handler: async ({ ctx, params }) => {
      const original = await readOriginal(ctx, params.id)
      return new Response(original.data as Uint8Array<ArrayBuffer>, {
        headers: {
          'content-type': original.contentType,
          'content-disposition': attachmentHeader(original.fileName),
          'content-length': String(original.data.byteLength),
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, no-store',
        },
      })
    },
  }),
})
