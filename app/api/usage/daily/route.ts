import { authenticate } from '@/lib/auth/tenant'
import { parseSearchParams } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { dailyUsage, DailyUsageParams } from '@/lib/usage/daily'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // usage per day over the last 30 days (or ?days=), for the organization, one agent or one channel
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await dailyUsage(ctx, parseSearchParams(req, DailyUsageParams)))
  },
})
