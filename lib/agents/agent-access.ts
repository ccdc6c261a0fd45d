import { getPrisma } from '@/lib/db/client'
import type { ConversationChannel } from '@/lib/domain/agents'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { NotFound, Unauthorized } from '@/lib/http/errors'
import type { AgentWithDatastores } from './agent-resource'
import { checkOrigin } from './allowed-domains'

/**
 * Who may use an agent: a caller of its organization (API key or dashboard session), or anyone when the agent is
 * public (the embeddable chat). A caller of another organization is treated as anyone. A private agent answers
 * 401 to a caller without credentials (as an unknown id does, so its existence is not revealed) and 404 to one
 * with credentials of another organization.
 */
export interface AgentAccess {
  agent: AgentWithDatastores
  /** The agent's organization: conversations, visitors and usage belong to it, whoever asks. */
  organizationId: string
  /** True when the caller belongs to the agent's organization; false for a public caller. */
  member: boolean
  channel: ConversationChannel
}

/** Where a browser's request comes from (its Origin header) and the hosts of this service. */
export interface RequestSite {
  origin: string | null
  ownHosts: string[]
}

/**
 * `ctx` is the caller as identify() found it: null for a caller without credentials. `site`, when given, is checked
 * against a public agent's allow-list for a caller outside its organization (403 origin_not_allowed).
 */
export async function resolveAgentAccess(ctx: TenantContext | null, agentId: string, site?: RequestSite): Promise<AgentAccess> {
  const prisma = await getPrisma()
  const agent = await prisma.agent.findUnique({
    where: { id: agentId },
    include: { datastores: { select: { datastoreId: true } } },
  })
  // a key limited to other agents sees this one as it sees an unknown id
  if (agent && ctx?.organizationId === agent.organizationId && !seesAgent(ctx, agent.id)) throw new NotFound('Agent')
  if (agent && ctx?.organizationId === agent.organizationId) {
    return { agent, organizationId: agent.organizationId, member: true, channel: ctx.actor.type === 'user' ? 'dashboard' : 'api' }
  }
  if (agent?.visibility === 'public') {
    if (site) checkOrigin(agent.allowedDomains, site)
    return { agent, organizationId: agent.organizationId, member: false, channel: 'website' }
  }
  if (ctx) throw new NotFound('Agent')
  throw new Unauthorized()
}
