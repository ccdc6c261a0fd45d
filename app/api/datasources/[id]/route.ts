import { authenticate } from '@/lib/auth/tenant'
import { deleteDatasource, getDatasource } from '@/lib/datastores/datasources'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await getDatasource(ctx, await parseId(params)))
  },
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await deleteDatasource(ctx, await parseId(params)))
  },
})
