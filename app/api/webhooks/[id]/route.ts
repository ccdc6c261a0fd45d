import { authenticate } from '@/lib/auth/tenant'
import { parseId, parseJson } from '@/lib/http/body'
import { routes } from '@/lib/http/route'
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/endpoints'
import { WebhookPatchBody } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  GET: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await getWebhook(ctx, await parseId(params)))
  },
  PATCH: async (req, { params }) => {
    const ctx = await authenticate(req)
    const id = await parseId(params)
    return Response.json(await updateWebhook(ctx, id, await parseJson(req, WebhookPatchBody)))
  },
  DELETE: async (req, { params }) => {
    const ctx = await authenticate(req)
    return Response.json(await deleteWebhook(ctx, await parseId(params)))
  },
})
