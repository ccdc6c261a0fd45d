import { serviceHealth } from '@/lib/health'
import { mayReadHealthDetails } from '@/lib/auth/health-access'
import { routes } from '@/lib/http/route'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => Response.json(await serviceHealth({ detailed: await mayReadHealthDetails(req) })),
})
