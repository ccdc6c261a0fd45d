// The webhooks area's calls to the API: the only module of components/webhooks that knows a URL.
import { apiFetch } from '@/components/api-client'
import type { CreatedWebhook, Delivery, Webhook, WebhookEvent } from './types'

const webhookPath = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`

export interface WebhookFields {
  url: string
  events: WebhookEvent[]
  description?: string | null
  enabled?: boolean
}

export function listWebhooks(): Promise<Webhook[]> {
  return apiFetch('/api/webhooks')
}

/** The new endpoint with its signing secret, answered this once. */
export function createWebhook(body: WebhookFields): Promise<CreatedWebhook> {
  return apiFetch('/api/webhooks', { method: 'POST', json: body })
}

export function updateWebhook(id: string, body: Partial<WebhookFields>): Promise<Webhook> {
  return apiFetch(webhookPath(id), { method: 'PATCH', json: body })
}

export function deleteWebhook(id: string): Promise<Webhook> {
  return apiFetch(webhookPath(id), { method: 'DELETE' })
}

export function listDeliveries(id: string): Promise<Delivery[]> {
  return apiFetch(`${webhookPath(id)}/deliveries?limit=50`)
}

/** "Send again": queues the delivery anew. */
export function resendDelivery(deliveryId: string): Promise<Delivery> {
  return apiFetch(`/api/webhooks/deliveries/${encodeURIComponent(deliveryId)}/resend`, { method: 'POST' })
}
