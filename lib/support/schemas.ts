import { z } from 'zod'
import { CONVERSATION_CHANNELS, CONVERSATION_PRIORITIES, CONVERSATION_STATUSES } from '@/lib/domain/agents'
import { IdParam } from '@/lib/http/body'

// The bodies and queries of the support workflow's endpoints, as Chaindesk's widget and dashboard send them.

/** PATCH /api/conversations/{id}: Chaindesk's widget sends `{status}`; operators may set the rest. */
export const ConversationUpdateBody = z
  .object({
    status: z.enum(CONVERSATION_STATUSES),
    isAiEnabled: z.boolean(),
    assigneeId: IdParam.nullable(),
    priority: z.enum(CONVERSATION_PRIORITIES),
  })
  .partial()
  .refine(b => Object.values(b).some(v => v !== undefined), { message: 'set at least one of status, isAiEnabled, assigneeId, priority' })
export type ConversationUpdate = z.infer<typeof ConversationUpdateBody>

/** What a visitor may set without a key: ask for a person, or say the question is resolved. */
export const VISITOR_STATUSES = ['HUMAN_REQUESTED', 'RESOLVED'] as const

export const MESSAGE_MAX = 10_000

/** POST /api/conversations/{id}/message (Chaindesk's widget: `{from: "human", message, channel, visitorId}`). */
export const ConversationMessageBody = z.object({
  message: z.string().trim().min(1, 'must not be empty').max(MESSAGE_MAX),
  /** Chaindesk's widget sends its channel ("website"); Chaindesk's other channels are accepted and not used here. */
  channel: z.union([z.enum(CONVERSATION_CHANNELS), z.string().max(40)]).optional(),
  visitorId: z.union([IdParam, z.literal('')]).nullish(),
  /** human: the visitor's message; agent: an operator's reply (a key or session). Default: agent with credentials. */
  from: z.enum(['human', 'agent']).optional(),
})
export type ConversationMessageInput = z.infer<typeof ConversationMessageBody>

/** An email address as a person types it into a form: one @, a dot in the domain, no spaces, at most 254 characters. */
export const VisitorEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an email address' }))
  .transform(e => e.toLowerCase())

/** POST /api/agents/{id}/capture (Chaindesk's lead form). */
export const CaptureBody = z.object({
  visitorEmail: VisitorEmail,
  conversationId: z.union([IdParam, z.literal('')]).nullish(),
  visitorId: z.union([IdParam, z.literal('')]).nullish(),
})
export type CaptureInput = z.infer<typeof CaptureBody>

export const LeadListParams = z.object({
  agentId: IdParam.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
})
export type LeadListParams = z.infer<typeof LeadListParams>

export const LeadExportParams = z.object({ agentId: IdParam.optional(), format: z.enum(['csv']).default('csv') })
