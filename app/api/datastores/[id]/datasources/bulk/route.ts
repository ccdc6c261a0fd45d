import { authenticate } from '@/lib/auth/tenant'
import { bulkDatasources } from '@/lib/datastores/bulk'
import { BulkBody } from '@/lib/datastores/content-schemas'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // re-sync or delete selected datasources, or all in a status ("retry all failed")
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    return Response.json(await bulkDatasources(ctx, id, await parseJson(req, BulkBody)))
  },
})
