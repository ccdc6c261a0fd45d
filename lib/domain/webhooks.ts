// The events an organization's webhook endpoints can receive, with what each carries (README "Schedules and
// webhooks"). A name outside this registry does not compile.
import { z } from 'zod'

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
  /** The support workflow (issue 23): who asked (`visitor`, `user`, `api_key`, `agent`), the lead's email if one was left. */
  'conversation.human_requested': SupportEventData & { leadEmail: string | null }
  'conversation.resolved': SupportEventData
  'lead.captured': { leadId: string; agentId: string; conversationId: string | null; visitorId: string | null; email: string }
}

export interface SupportEventData {
  conversationId: string
  agentId: string
  visitorId: string | null
  by: string
  title: string | null
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
  'conversation.human_requested': 'A visitor (or the agent) asked for a person to take the conversation',
  'conversation.resolved': 'A conversation was marked resolved',
  'lead.captured': 'A visitor left a contact email',
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
export const WebhookResource = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS as [WebhookEvent, ...WebhookEvent[]])),
    enabled: z.boolean(),
    secretPrefix: z.string().describe('The first characters of the signing secret, to recognise it; the secret itself is returned once, at creation'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' })
export type WebhookResource = z.infer<typeof WebhookResource>

/** A new endpoint with its signing secret, answered this once. */
export const CreatedWebhook = WebhookResource.extend({ secret: z.string() })

export const DELIVERY_STATUSES = ['pending', 'running', 'delivered', 'failed'] as const

export const DeliveryResource = z
  .strictObject({
    id: z.string(),
    webhookId: z.string(),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.iso.datetime().nullable(),
    deliveredAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    body: z.unknown().describe('The JSON body sent'),
  })
  .meta({ id: 'WebhookDelivery' })
export type DeliveryResource = z.infer<typeof DeliveryResource>
