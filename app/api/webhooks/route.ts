import { z } from 'zod'
import { CreatedWebhook, WebhookResource } from '@/lib/domain/webhooks'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { createWebhook, listWebhooks } from '@/lib/webhooks/endpoints'
import { WebhookCreateBody } from '@/lib/webhooks/schemas'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/webhooks', {
  GET: endpoint({
    summary: "The organization's webhooks",
    access: { scope: 'admin' },
    response: z.array(WebhookResource),
    handler: ({ ctx }) => listWebhooks(ctx),
  }),
  POST: endpoint({
    summary: 'Create a webhook (answers its signing secret, this once)',
    access: { scope: 'admin' },
    body: WebhookCreateBody,
    response: CreatedWebhook,
    status: 201,
    handler: ({ ctx, body }) => createWebhook(ctx, body),
  }),
})
