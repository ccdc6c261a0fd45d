import { authenticate } from '@/lib/auth/tenant'
import { ChunkListParams } from '@/lib/datastores/content-schemas'
import { listChunks } from '@/lib/datastores/datasource-content'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await listChunks(ctx, await parseId(params), parseSearchParams(req, ChunkListParams)))
  },
})
