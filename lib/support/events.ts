import { getPrisma } from '@/lib/db/client'
import type { ConversationEventResource, ConversationEventType, SupportActorType } from '@/lib/domain/support'

// The history of a conversation's support state, oldest first, as the inbox shows it.

export async function conversationEvents(conversationId: string): Promise<ConversationEventResource[]> {
  const prisma = await getPrisma()
  const rows = await prisma.conversationEvent.findMany({ where: { conversationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
  return rows.map(e => ({
    id: e.id,
    type: e.type as ConversationEventType,
    from: e.fromValue,
    to: e.toValue,
    actor: { type: e.actorType as SupportActorType, id: e.actorId, name: e.actorName },
    createdAt: e.createdAt.toISOString(),
  }))
}

/** The emails visitors left in the conversation, oldest first. */
export async function conversationLeads(conversationId: string): Promise<string[]> {
  const prisma = await getPrisma()
  const rows = await prisma.lead.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' }, select: { email: true } })
  return rows.map(r => r.email)
}
