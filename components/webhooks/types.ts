// The webhook resources as the API answers them (lib/domain, safe in the browser) and the dashboard's query keys.
import type { ResponseOf } from '@/components/api-client'
import type { DeliveryResource, WebhookEvent, WebhookResource } from '@/lib/domain/webhooks'

export { describeEvent, WEBHOOK_EVENTS } from '@/lib/domain/webhooks'
export type Webhook = WebhookResource
export type Delivery = DeliveryResource
export type { WebhookEvent }
export type CreatedWebhook = ResponseOf<'POST /api/webhooks'>

export const webhooksQueryKey = ['webhooks'] as const
export const deliveriesQueryKey = (webhookId: string) => ['webhooks', webhookId, 'deliveries'] as const
