import { getPrisma } from '@/lib/db/client'
import type { ConversationPriority, ConversationState, ConversationStatus } from '@/lib/domain/agents'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { NotFound, Unauthorized } from '@/lib/http/errors'

// A conversation as the support workflow reads it, and who may touch it: a caller of its organization, or, for a
// public agent's conversation, anyone holding its id (Chaindesk's widget sends no key: the random id, known only to
// the visitor's browser, is the capability, as for reading it). A private agent's conversation answers 401 to a
// caller without credentials and 404 to another organization, as an unknown id does.

export interface SupportConversation {
  id: string
  organizationId: string
  agentId: string
  visitorId: string | null
  title: string | null
  status: ConversationStatus
  isAiEnabled: boolean
  assigneeId: string | null
  priority: ConversationPriority
  resolvedAt: Date | null
  /** True when the caller belongs to the conversation's organization. */
  member: boolean
}

const SELECT = {
  id: true,
  organizationId: true,
  agentId: true,
  visitorId: true,
  title: true,
  status: true,
  isAiEnabled: true,
  assigneeId: true,
  priority: true,
  resolvedAt: true,
  agent: { select: { visibility: true } },
} as const

/** The conversation for this caller (null: no credentials), refused as its agent's visibility says. */
export async function findSupportConversation(ctx: TenantContext | null, id: string): Promise<SupportConversation> {
  const prisma = await getPrisma()
  const row = await prisma.conversation.findUnique({ where: { id }, select: SELECT })
  // a key limited to some agents is not a member for the others' conversations (404, as another organization's)
  const member = row !== null && row.organizationId === ctx?.organizationId && seesAgent(ctx, row.agentId)
  if (!row || (!member && (ctx || row.agent.visibility !== 'public'))) {
    if (ctx) throw new NotFound('Conversation')
    throw new Unauthorized()
  }
  const { agent: _agent, ...fields } = row
  return { ...fields, member }
}

/** The conversation of an organization, by id (the services' entry for callers known to be its members). */
export async function findOwnConversation(organizationId: string, id: string): Promise<SupportConversation> {
  const prisma = await getPrisma()
  const row = await prisma.conversation.findFirst({ where: { id, organizationId }, select: SELECT })
  if (!row) throw new NotFound('Conversation')
  const { agent: _agent, ...fields } = row
  return { ...fields, member: true }
}

/** The state as the API answers it; a key-less caller does not see whom it is assigned to. */
export function stateOf(c: Omit<SupportConversation, 'organizationId' | 'agentId' | 'visitorId' | 'title'>): ConversationState {
  return {
    id: c.id,
    status: c.status,
    isAiEnabled: c.isAiEnabled,
    assigneeId: c.member ? c.assigneeId : null,
    priority: c.priority,
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
  }
}
