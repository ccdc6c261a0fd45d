import { WebhookResource } from '@/lib/domain/webhooks'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/endpoints'
import { WebhookPatchBody } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/webhooks/{id}', {
  GET: endpoint({
    summary: 'A webhook',
    access: { scope: 'admin' },
    response: WebhookResource,
    handler: ({ ctx, params }) => getWebhook(ctx, params.id),
  }),
  PATCH: endpoint({
    summary: 'Update a webhook',
    access: { scope: 'admin' },
    body: WebhookPatchBody,
    response: WebhookResource,
    handler: ({ ctx, params, body }) => updateWebhook(ctx, params.id, body),
  }),
  DELETE: endpoint({
    summary: 'Delete a webhook',
    access: { scope: 'admin' },
    response: WebhookResource,
    handler: ({ ctx, params }) => deleteWebhook(ctx, params.id),
  }),
})
