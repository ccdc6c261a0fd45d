import { authenticate } from '@/lib/auth/tenant'
import { deleteDatasource, getDatasource } from '@/lib/datastores/datasources'
import { DatasourcePatchBody } from '@/lib/datastores/schemas'
import { updateDatasource } from '@/lib/datastores/update-datasource'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await getDatasource(ctx, await parseId(params)))
  },
  // a web source's refresh interval, a web site's crawl rules, the name
  PATCH: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    return Response.json(await updateDatasource(ctx, id, await parseJson(req, DatasourcePatchBody)))
  },
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await deleteDatasource(ctx, await parseId(params)))
  },
})
