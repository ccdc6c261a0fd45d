import { authenticate } from '@/lib/auth/tenant'
import { queryDatastore } from '@/lib/datastores/query'
import { DatastoreQueryBody } from '@/lib/datastores/schemas'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const body = await parseJson(req, DatastoreQueryBody)
    return Response.json(await queryDatastore(ctx, id, body, req.signal))
  },
})
