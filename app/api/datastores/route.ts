import { authenticate } from '@/lib/auth/tenant'
import { createDatastore, listDatastores } from '@/lib/datastores/datastores'
import { DatastoreCreateBody } from '@/lib/datastores/schemas'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listDatastores(ctx))
  },
  POST: async req => {
    const ctx = await authenticate(req)
    const body = await parseJson(req, DatastoreCreateBody)
    return Response.json(await createDatastore(ctx, body), { status: 201 })
  },
})
