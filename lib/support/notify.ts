import { getPrisma } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { emitEvent } from '@/lib/webhooks'
import type { SupportActor } from './actor'
import type { SupportConversation } from './conversation'
import { mailTeam } from './mail'

// Telling the team (DESIGN.md §11): the webhook events of the support workflow, signed and retried by the worker's
// delivery lane like every event. Never throws: a change that happened is not undone because nobody could be told.

/** `conversation.human_requested` or `conversation.resolved` for a conversation that just took that status. */
export async function announceStatus(c: SupportConversation, actor: SupportActor): Promise<void> {
  try {
    const data = { conversationId: c.id, agentId: c.agentId, visitorId: c.visitorId, by: actor.type, title: c.title }
    if (c.status === 'HUMAN_REQUESTED') {
      const leadEmail = await leadEmailOf(c.id)
      await emitEvent(c.organizationId, 'conversation.human_requested', { ...data, leadEmail })
      void mailTeam(c, leadEmail)
    } else if (c.status === 'RESOLVED') {
      await emitEvent(c.organizationId, 'conversation.resolved', data)
      // the team is told of what a visitor or the agent resolved; an operator knows what they resolved
      if (actor.type === 'visitor' || actor.type === 'agent') void mailTeam(c, null)
    }
  } catch (error) {
    logger.error('support event not queued', { conversationId: c.id, status: c.status, error })
  }
}

export async function announceLead(lead: { id: string; organizationId: string; agentId: string; conversationId: string | null; visitorId: string | null; email: string }): Promise<void> {
  const { id: leadId, organizationId, ...data } = lead
  await emitEvent(organizationId, 'lead.captured', { leadId, ...data })
}

/** The latest email a visitor left in the conversation. */
export async function leadEmailOf(conversationId: string): Promise<string | null> {
  const prisma = await getPrisma()
  const lead = await prisma.lead.findFirst({ where: { conversationId }, orderBy: { createdAt: 'desc' }, select: { email: true } })
  return lead?.email ?? null
}
