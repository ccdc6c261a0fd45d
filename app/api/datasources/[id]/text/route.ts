import { authenticate } from '@/lib/auth/tenant'
import { extractedText } from '@/lib/datastores/datasource-content'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await extractedText(ctx, await parseId(params)))
  },
})
