// The support workflow's resources (issue 23, DESIGN.md §11): leads visitors leave, the changes of a conversation's
// state as events, an operator's view of both. zod schemas, types inferred.
import { z } from 'zod'

const time = z.iso.datetime()

/** What a change of a conversation's support state is about. */
export const CONVERSATION_EVENT_TYPES = ['status', 'ai', 'assignee', 'priority', 'lead'] as const
export type ConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number]

/** Who made a change: the visitor (the widget), a member (dashboard), an API key, or the agent itself (its tools). */
export const SUPPORT_ACTOR_TYPES = ['visitor', 'user', 'api_key', 'agent'] as const
export type SupportActorType = (typeof SUPPORT_ACTOR_TYPES)[number]

export const ConversationEventResource = z
  .strictObject({
    id: z.string(),
    type: z.enum(CONVERSATION_EVENT_TYPES),
    from: z.string().nullable(),
    to: z.string().nullable(),
    actor: z.strictObject({ type: z.enum(SUPPORT_ACTOR_TYPES), id: z.string().nullable(), name: z.string().nullable() }),
    createdAt: time,
  })
  .meta({ id: 'ConversationEvent' })
export type ConversationEventResource = z.infer<typeof ConversationEventResource>

export const LeadResource = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable().describe("Given to the agent's lead_capture tool; Chaindesk's form leaves only the email"),
    phone: z.string().nullable(),
    agentId: z.string(),
    agentName: z.string(),
    conversationId: z.string().nullable(),
    visitorId: z.string().nullable(),
    createdAt: time,
  })
  .meta({ id: 'Lead' })
export type LeadResource = z.infer<typeof LeadResource>

export const LeadsPage = z.strictObject({ items: z.array(LeadResource), nextCursor: z.string().nullable() }).meta({ id: 'LeadsPage' })
export type LeadsPage = z.infer<typeof LeadsPage>

/** What POST /api/agents/{id}/capture answers: the lead, new or the one already left with that email. */
export const CapturedLead = z.strictObject({ id: z.string(), email: z.string(), conversationId: z.string().nullable(), createdAt: time }).meta({ id: 'CapturedLead' })
export type CapturedLead = z.infer<typeof CapturedLead>

/** A message appended with POST /api/conversations/{id}/message (a visitor's, or an operator's reply). */
export const AppendedMessage = z
  .strictObject({
    id: z.string(),
    conversationId: z.string(),
    from: z.enum(['human', 'agent']),
    text: z.string(),
    operatorName: z.string().nullable(),
    createdAt: time,
  })
  .meta({ id: 'AppendedMessage' })
export type AppendedMessage = z.infer<typeof AppendedMessage>

/** A member of the organization, as the inbox offers them to assign a conversation to. */
export const MemberResource = z
  .strictObject({ id: z.string(), name: z.string().nullable(), email: z.string(), role: z.string() })
  .meta({ id: 'Member' })
export type MemberResource = z.infer<typeof MemberResource>
