// The request shapes of the webhook endpoints' API, validated at the edge (unknown fields are ignored).
import { z } from 'zod'
import { HttpUrl } from '@/lib/domain/urls'
import { WEBHOOK_EVENTS, type WebhookEvent } from '@/lib/domain/webhooks'

const Events = z.array(z.enum(WEBHOOK_EVENTS as [WebhookEvent, ...WebhookEvent[]])).min(1, 'choose at least one event').max(WEBHOOK_EVENTS.length)

export const WebhookCreateBody = z.object({
  url: HttpUrl,
  events: Events,
  description: z.string().trim().max(500).nullable().optional(),
  enabled: z.boolean().optional(),
})
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>

export const WebhookPatchBody = z.object({
  url: HttpUrl.optional(),
  events: Events.optional(),
  description: z.string().trim().max(500).nullable().optional(),
  enabled: z.boolean().optional(),
})
export type WebhookPatchBody = z.infer<typeof WebhookPatchBody>

export const DeliveryListParams = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
})
