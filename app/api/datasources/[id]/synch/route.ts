import { authenticate } from '@/lib/auth/tenant'
import { synchDatasource } from '@/lib/datastores/datasources'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await synchDatasource(ctx, await parseId(params)))
  },
})
