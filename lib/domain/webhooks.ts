// The events an organization's webhook endpoints can receive, with what each carries (README "Schedules and
// webhooks"). A name outside this registry does not compile.

export interface DatasourceEventData {
  datasourceId: string
  datastoreId: string
  name: string
  type: string
  status: string
  errorMessage: string | null
  /** What the synchronisation did to the content. */
  outcome?: 'added' | 'changed' | 'unchanged'
}

export interface WebhookEventData {
  'datasource.synched': DatasourceEventData
  'datasource.failed': DatasourceEventData
  'datasource.usage_limit_reached': DatasourceEventData
  'site.refreshed': DatasourceEventData & { pages: { added: number; changed: number; unchanged: number; removed: number; failed: number } }
  'conversation.created': { conversationId: string; agentId: string; visitorId: string | null; channel: string }
  'message.created': { messageId: string; conversationId: string; agentId: string; role: 'user' | 'assistant'; text: string }
  /** A vote on an answer (lib/feedback), a first one or a change; `value` is 'good' or 'bad'. */
  'feedback.created': { feedbackId: string; messageId: string; conversationId: string; value: string }
}

export type WebhookEvent = keyof WebhookEventData

const REGISTRY: { [E in WebhookEvent]: string } = {
  'datasource.synched': 'A datasource finished synchronising (its content is searchable)',
  'datasource.failed': 'A datasource could not be synchronised',
  'datasource.usage_limit_reached': "A datasource stopped at the organization's stored-token limit",
  'site.refreshed': 'A web site finished a synchronisation: pages added, changed, unchanged, removed',
  'conversation.created': 'An agent started a conversation',
  'message.created': 'A message was stored in a conversation',
  'feedback.created': 'A user gave feedback on an answer',
}

export const WEBHOOK_EVENTS = Object.keys(REGISTRY) as WebhookEvent[]

export function describeEvent(event: WebhookEvent): string {
  return REGISTRY[event]
}

/** The JSON body of a delivery. */
export interface WebhookPayload<E extends WebhookEvent = WebhookEvent> {
  id: string
  type: E
  createdAt: string
  organizationId: string
  data: WebhookEventData[E]
}

/** Headers of a delivery: the signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'x-webhook-signature'
export const EVENT_HEADER = 'x-webhook-event'
export const DELIVERY_HEADER = 'x-webhook-id'

/** A webhook endpoint as the API answers it. */
export interface WebhookResource {
  id: string
  url: string
  description: string | null
  events: WebhookEvent[]
  enabled: boolean
  /** The first characters of the signing secret, to recognise it; the secret itself is returned once, at creation. */
  secretPrefix: string
  createdAt: string
  updatedAt: string
}

export interface DeliveryResource {
  id: string
  webhookId: string
  event: string
  status: 'pending' | 'running' | 'delivered' | 'failed'
  attempts: number
  responseStatus: number | null
  lastError: string | null
  nextAttemptAt: string | null
  deliveredAt: string | null
  createdAt: string
  body: unknown
}
