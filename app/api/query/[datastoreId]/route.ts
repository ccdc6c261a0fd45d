import { authenticate } from '@/lib/auth/tenant'
import { DataberryQueryBody, DataberryQueryParams, queryDataberry } from '@/lib/datastores/databerry-query'
import { parseId, parseJson, parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // Databerry's `POST /query/{datastoreId}` (proxy.ts rewrites it here): the datastore query as {results}
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params, 'datastoreId')
    const query = parseSearchParams(req, DataberryQueryParams)
    const body = await parseJson(req, DataberryQueryBody)
    return Response.json(await queryDataberry(ctx, id, body, query, req.signal))
  },
})
