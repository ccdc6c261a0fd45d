import { authenticate } from '@/lib/auth/tenant'
import { attachmentHeader, readOriginal } from '@/lib/datastores/datasource-content'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // the uploaded file (or upserted text) as it was stored; 404 for another organization's datasource
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    const original = await readOriginal(ctx, await parseId(params))
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
})
