// The webhooks area's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, type RequestOf } from '@/components/api-client'

export type WebhookFields = RequestOf<'POST /api/webhooks'>['body']

export const listWebhooks = () => api('GET /api/webhooks')
/** The new endpoint with its signing secret, answered this once. */
export const createWebhook = (body: WebhookFields) => api('POST /api/webhooks', { body })
export const updateWebhook = (id: string, body: RequestOf<'PATCH /api/webhooks/{id}'>['body']) => api('PATCH /api/webhooks/{id}', { params: { id }, body })
export const deleteWebhook = (id: string) => api('DELETE /api/webhooks/{id}', { params: { id } })
export const listDeliveries = (id: string) => api('GET /api/webhooks/{id}/deliveries', { params: { id }, query: { limit: 50 } })
/** "Send again": queues the delivery anew. */
export const resendDelivery = (id: string) => api('POST /api/webhooks/deliveries/{id}/resend', { params: { id } })
