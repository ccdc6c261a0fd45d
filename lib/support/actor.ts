import { getPrisma } from '@/lib/db/client'
import type { SupportActorType } from '@/lib/domain/support'
import type { TenantContext } from '@/lib/domain/tenant'

// Who changes a conversation or writes in it: recorded with each event, and an operator's name shown to the visitor.

export interface SupportActor {
  type: SupportActorType
  /** The user, API key or visitor id; null for the agent. */
  id: string | null
  /** What the team and the visitor read: a member's name, an API key's name. */
  name: string | null
}

/** The agent itself (its built-in tools, issue 25). */
export const AGENT_ACTOR: SupportActor = { type: 'agent', id: null, name: null }

export const visitorActor = (visitorId: string | null): SupportActor => ({ type: 'visitor', id: visitorId, name: null })

/** The member or key behind a tenant context, named: a member by name (else the part of the email before "@"). */
export async function operatorOf(ctx: TenantContext): Promise<SupportActor> {
  const prisma = await getPrisma()
  if (ctx.actor.type === 'user') {
    const user = await prisma.user.findUnique({ where: { id: ctx.actor.userId }, select: { name: true, email: true } })
    return { type: 'user', id: ctx.actor.userId, name: user?.name?.trim() || user?.email.split('@')[0] || 'Operator' }
  }
  const key = await prisma.apiKey.findUnique({ where: { id: ctx.actor.apiKeyId }, select: { name: true } })
  return { type: 'api_key', id: ctx.actor.apiKeyId, name: key?.name ?? 'API' }
}
