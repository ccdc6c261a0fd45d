import { authenticate } from '@/lib/auth/tenant'
import { listDatastores } from '@/lib/datastores/datastores'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listDatastores(ctx))
  },
})
