import { rotateVisitorSecret } from '@/lib/agents/visitor-signature'
import { authenticate } from '@/lib/auth/tenant'
import { parseId } from '@/lib/http/body'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // a new visitor signing secret, answered once (the previous one stops verifying at once)
  POST: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    return Response.json(await rotateVisitorSecret(ctx, id), { status: 201 })
  },
})
