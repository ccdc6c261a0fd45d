import { getDatabase } from '@/lib/db/client'
import { Prisma, type Agent } from '@/lib/generated/prisma/client'
import type { ConversationChannel } from '@/lib/domain/agents'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { NotFound, Unauthorized } from '@/lib/http/errors'
import type { AgentWithDatastores } from './agent-resource'
import { checkOrigin } from './allowed-domains'
import type { ModelOverrides } from './model-catalogue'
import { modelOverridesOf } from './organization-models'

/**
 * Who may use an agent: a caller of its organization (API key or dashboard session), or anyone when the agent is
 * public (the embeddable chat). A caller of another organization is treated as anyone. A private agent answers
 * 401 to a caller without credentials (as an unknown id does, so its existence is not revealed) and 404 to one
 * with credentials of another organization.
 */
export interface AgentAccess {
  agent: AgentWithDatastores
  /** The organization's own model map (issue 27), read with the agent: an edit applies to the next question. */
  organizationModels: ModelOverrides
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
  const found = await loadAgent(agentId)
  const agent = found?.agent
  const organizationModels = found?.organizationModels ?? {}
  // a key limited to other agents sees this one as it sees an unknown id
  if (agent && ctx?.organizationId === agent.organizationId && !seesAgent(ctx, agent.id)) throw new NotFound('Agent')
  if (agent && ctx?.organizationId === agent.organizationId) {
    return { agent, organizationModels, organizationId: agent.organizationId, member: true, channel: ctx.actor.type === 'user' ? 'dashboard' : 'api' }
  }
  if (agent?.visibility === 'public') {
    if (site) checkOrigin(agent.allowedDomains, site)
    return { agent, organizationModels, organizationId: agent.organizationId, member: false, channel: 'website' }
  }
  if (ctx) throw new NotFound('Agent')
  throw new Unauthorized()
}

// Every column of Agent (the generated client's list, so a new column is read too), as Prisma names them
const AGENT_COLUMNS = Object.values(Prisma.AgentScalarFieldEnum).map(column => `a."${column}"`).join(', ')

/**
 * The agent, its datastores and its organization's model map: one statement (issue 28: every question reads them;
 * through Prisma they were three). The row as Prisma reads it (tests/agents/agent-access.test.ts compares them).
 */
async function loadAgent(agentId: string): Promise<{ agent: AgentWithDatastores; organizationModels: ModelOverrides } | null> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<Agent & { datastoreIds: string[]; modelMap: unknown }>(
    `SELECT ${AGENT_COLUMNS}, ARRAY(SELECT d."datastoreId" FROM "AgentDatastore" d WHERE d."agentId" = a.id) AS "datastoreIds", o."modelMap"
       FROM "Agent" a JOIN "Organization" o ON o.id = a."organizationId" WHERE a.id = $1`,
    [agentId],
  )
  if (!row) return null
  const { datastoreIds, modelMap, ...agent } = row
  return { agent: { ...agent, datastores: datastoreIds.map(datastoreId => ({ datastoreId })) }, organizationModels: modelOverridesOf(modelMap) }
}
