// Outgoing webhooks: an organization's endpoints (endpoints.ts), events queued as deliveries (emit.ts) and sent,
// signed and retried, by the worker's delivery lane (deliver.ts, queue.ts). README "Schedules and webhooks".
export { WEBHOOK_EVENTS, type WebhookEvent, type WebhookEventData, type WebhookPayload } from '@/lib/domain/webhooks'
export { datasourceEventOf, emitEvent, emitEvents, queuedDeliveries, type EventToEmit } from './emit'
export { deliverDueWebhooks, type WebhookSender } from './deliver'
export type { DeliveryResult } from './queue'
export { signatureHeader, verifySignature } from './signature'
export { emitMessageCreated } from './agent-events'
