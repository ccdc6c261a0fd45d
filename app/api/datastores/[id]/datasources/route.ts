import { authenticate } from '@/lib/auth/tenant'
import { listDatasources } from '@/lib/datastores/datasources'
import { DatasourceListQuery } from '@/lib/datastores/content-schemas'
import { parseId, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    return Response.json(await listDatasources(ctx, id, parseSearchParams(req, DatasourceListQuery)))
  },
})
