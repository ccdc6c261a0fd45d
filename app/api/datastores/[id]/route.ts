import { authenticate } from '@/lib/auth/tenant'
import { deleteDatastore, getDatastore, updateDatastore } from '@/lib/datastores/datastores'
import { DatastorePatchBody } from '@/lib/datastores/schemas'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await getDatastore(ctx, await parseId(params)))
  },
  PATCH: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    const body = await parseJson(req, DatastorePatchBody)
    return Response.json(await updateDatastore(ctx, id, body))
  },
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await deleteDatastore(ctx, await parseId(params)))
  },
})
