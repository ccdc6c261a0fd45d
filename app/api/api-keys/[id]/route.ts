import { revokeApiKey } from '@/lib/auth/api-keys'
import { authenticate } from '@/lib/auth/tenant'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // revoking keeps the row (`npm run keys -- list` shows it as revoked); the secret stops working at once
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await revokeApiKey(ctx, await parseId(params)))
  },
})
