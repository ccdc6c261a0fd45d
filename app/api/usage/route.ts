import { authenticate } from '@/lib/auth/tenant'
import { routes } from '@/lib/http/route'
import { usageReport } from '@/lib/usage/usage-report'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await usageReport(ctx))
  },
})
