import { getPrisma } from '@/lib/db/client'
import type { ConversationPriority, ConversationStatus } from '@/lib/domain/agents'
import type { ConversationEventType } from '@/lib/domain/support'
import { NotFound } from '@/lib/http/errors'
import type { SupportActor } from './actor'
import type { SupportConversation } from './conversation'
import { announceStatus } from './notify'

// A conversation's support state changes here and only here (the PATCH, the inbox's buttons, a visitor's widget and,
// later, the agent's own tools): the new state, one event per changed field (who, when), the team told. Plain
// functions with explicit inputs: the conversation, what changes, who changes it.

export interface StateChange {
  status?: ConversationStatus
  isAiEnabled?: boolean
  assigneeId?: string | null
  priority?: ConversationPriority
}

interface EventRow {
  type: ConversationEventType
  from: string | null
  to: string | null
}

const text = (v: unknown) => (v === null || v === undefined ? null : String(v))

/** The fields the change really changes, as events. */
function eventsOf(c: SupportConversation, change: StateChange): EventRow[] {
  const events: EventRow[] = []
  if (change.status !== undefined && change.status !== c.status) events.push({ type: 'status', from: c.status, to: change.status })
  if (change.isAiEnabled !== undefined && change.isAiEnabled !== c.isAiEnabled) events.push({ type: 'ai', from: text(c.isAiEnabled), to: text(change.isAiEnabled) })
  if (change.assigneeId !== undefined && change.assigneeId !== c.assigneeId) events.push({ type: 'assignee', from: c.assigneeId, to: change.assigneeId })
  if (change.priority !== undefined && change.priority !== c.priority) events.push({ type: 'priority', from: c.priority, to: change.priority })
  return events
}

/** Applies the change (nothing when it changes nothing) and returns the conversation as it now is. */
export async function changeConversation(c: SupportConversation, change: StateChange, actor: SupportActor): Promise<SupportConversation> {
  const events = eventsOf(c, change)
  if (events.length === 0) return c
  const next: SupportConversation = { ...c, ...definedOf(change) }
  if (change.status !== undefined && change.status !== c.status) next.resolvedAt = change.status === 'RESOLVED' ? new Date() : null
  const prisma = await getPrisma()
  await prisma.$transaction([
    prisma.conversation.update({
      where: { id: c.id },
      data: { status: next.status, isAiEnabled: next.isAiEnabled, assigneeId: next.assigneeId, priority: next.priority, resolvedAt: next.resolvedAt },
      select: { id: true },
    }),
    prisma.conversationEvent.createMany({
      data: events.map(e => ({ conversationId: c.id, type: e.type, fromValue: e.from, toValue: e.to, actorType: actor.type, actorId: actor.id, actorName: actor.name })),
    }),
  ])
  if (next.status !== c.status) await announceStatus(next, actor)
  return next
}

function definedOf(change: StateChange): Partial<SupportConversation> {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
}

/** The visitor (or the agent) asks for a person. */
export const requestHuman = (c: SupportConversation, actor: SupportActor) => changeConversation(c, { status: 'HUMAN_REQUESTED' }, actor)

export const resolveConversation = (c: SupportConversation, actor: SupportActor) => changeConversation(c, { status: 'RESOLVED' }, actor)

export const reopenConversation = (c: SupportConversation, actor: SupportActor) => changeConversation(c, { status: 'UNRESOLVED' }, actor)

/** An operator takes the conversation: the model stops answering; an unassigned one is assigned to that member. */
export function takeOver(c: SupportConversation, actor: SupportActor): Promise<SupportConversation> {
  const assigneeId = c.assigneeId ?? (actor.type === 'user' ? actor.id : null)
  return changeConversation(c, { isAiEnabled: false, assigneeId }, actor)
}

/** The model answers again. */
export const handBack = (c: SupportConversation, actor: SupportActor) => changeConversation(c, { isAiEnabled: true }, actor)

/** Assigns the conversation to a member of its organization (null: to nobody); another organization's user is 404. */
export async function assign(c: SupportConversation, assigneeId: string | null, actor: SupportActor): Promise<SupportConversation> {
  if (assigneeId !== null) await checkMember(c.organizationId, assigneeId)
  return changeConversation(c, { assigneeId }, actor)
}

export const setPriority = (c: SupportConversation, priority: ConversationPriority, actor: SupportActor) => changeConversation(c, { priority }, actor)

export async function checkMember(organizationId: string, userId: string): Promise<void> {
  const prisma = await getPrisma()
  const membership = await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { id: true } })
  if (!membership) throw new NotFound('Member')
}
