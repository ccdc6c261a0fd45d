import { authenticate } from '@/lib/auth/tenant'
import { parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { createWebhook, listWebhooks } from '@/lib/webhooks/endpoints'
import { WebhookCreateBody } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async req => {
    const ctx = await authenticate(req)
    return Response.json(await listWebhooks(ctx))
  },
  // answers the signing secret, this once
  POST: async req => {
    const ctx = await authenticate(req)
    return Response.json(await createWebhook(ctx, await parseJson(req, WebhookCreateBody)), { status: 201 })
  },
})
