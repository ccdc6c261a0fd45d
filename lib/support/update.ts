import type { ConversationState } from '@/lib/domain/agents'
import type { TenantContext } from '@/lib/domain/tenant'
import { InvalidRequest, Unauthorized } from '@/lib/http/errors'
import { operatorOf, visitorActor } from './actor'
import { findSupportConversation, stateOf } from './conversation'
import { VISITOR_STATUSES, type ConversationUpdate } from './schemas'
import { changeConversation, checkMember } from './transitions'

// PATCH /api/conversations/{id}, as Chaindesk's widget sends it (`{status}`, no key) and as operators do (any field).

/**
 * A visitor (no credentials, a public agent's conversation) may ask for a person or say it is resolved, nothing
 * else; a member of the organization may set every field. Returns the state after the change.
 */
export async function updateConversationState(ctx: TenantContext | null, id: string, body: ConversationUpdate): Promise<ConversationState> {
  const conversation = await findSupportConversation(ctx, id)
  if (!conversation.member) {
    checkVisitorUpdate(body)
    return stateOf(await changeConversation(conversation, { status: body.status }, visitorActor(conversation.visitorId)))
  }
  if (body.assigneeId) await checkMember(conversation.organizationId, body.assigneeId)
  const operator = await operatorOf(ctx!)
  return stateOf(await changeConversation(conversation, body, operator))
}

function checkVisitorUpdate(body: ConversationUpdate): void {
  const others = (['isAiEnabled', 'assigneeId', 'priority'] as const).filter(k => body[k] !== undefined)
  if (others.length > 0) throw new Unauthorized(`Setting ${others.join(', ')} needs an API key or a session`)
  if (!(VISITOR_STATUSES as readonly string[]).includes(body.status!)) {
    throw new InvalidRequest(`Without credentials, status may only be set to ${VISITOR_STATUSES.join(' or ')}`, [
      { path: 'status', message: `expected ${VISITOR_STATUSES.join(' or ')}` },
    ])
  }
}
