import { getPrisma } from '@/lib/db/client'
import type { AgentResource } from '@/lib/domain/agents'
import { seesAgent, visibleIds, type TenantContext } from '@/lib/domain/tenant'
import { NotFound } from '@/lib/http/errors'
import { toAgentResource } from './agent-resource'
import { mergeAppearance } from './appearance'
import type { AgentCreate, AgentUpdate } from './agent-schemas'
import { prepareTools, storedTools, storeTools, type StoredTool } from './tools'

// The agent service: every function is scoped to the caller's organization; another tenant's agent is "not found".

const withDatastores = { datastores: { select: { datastoreId: true } } } as const

/** Throws NotFound unless every id is a datastore of the caller's organization. */
async function checkDatastores(ctx: TenantContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  const prisma = await getPrisma()
  const found = await prisma.datastore.count({ where: { id: { in: ids }, organizationId: ctx.organizationId } })
  if (found !== ids.length) throw new NotFound('Datastore')
}

/** The agent's own columns from a create or update body; a field left out (undefined) is left as it is by Prisma. */
function agentColumns(input: AgentCreate | AgentUpdate) {
  const { name, description, modelName, temperature, visibility, systemPrompt, userPrompt, promptType, promptTemplate } = input
  const { allowedDomains, requireSignedVisitors } = input
  const { rewriteQuestions, minScore, noAnswerMessage, maxTokens } = input
  return { name, description, modelName, temperature, maxTokens, visibility, systemPrompt, userPrompt, promptType, promptTemplate, allowedDomains, requireSignedVisitors, rewriteQuestions, minScore, noAnswerMessage }
}

export async function createAgent(ctx: TenantContext, input: AgentCreate): Promise<AgentResource> {
  const datastoreIds = input.datastoreIds ?? []
  await checkDatastores(ctx, datastoreIds)
  const prisma = await getPrisma()
  const agent = await prisma.agent.create({
    data: {
      ...agentColumns(input),
      appearance: mergeAppearance({}, input.appearance ?? {}),
      tools: (await prepareTools(storeTools(input.tools ?? []), ctx)) as object[],
      name: input.name,
      description: input.description ?? '',
      organizationId: ctx.organizationId,
      datastores: { create: datastoreIds.map(datastoreId => ({ datastoreId })) },
    },
    include: withDatastores,
  })
  return toAgentResource(agent)
}

export async function listAgents(ctx: TenantContext): Promise<AgentResource[]> {
  const prisma = await getPrisma()
  const agents = await prisma.agent.findMany({
    where: { organizationId: ctx.organizationId, ...visibleIds(ctx.grant?.agentIds) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: withDatastores,
  })
  return agents.map(toAgentResource)
}

/** The agent row with its datastore ids, if it belongs to the caller's organization. */
export async function findAgent(ctx: TenantContext, id: string) {
  const prisma = await getPrisma()
  const agent = seesAgent(ctx, id) ? await prisma.agent.findFirst({ where: { id, organizationId: ctx.organizationId }, include: withDatastores }) : null
  if (!agent) throw new NotFound('Agent')
  return agent
}

/** §4.3: fields left out keep their value; `datastoreIds`, when given, replaces the whole list. */
export async function updateAgent(ctx: TenantContext, id: string, input: AgentUpdate): Promise<AgentResource> {
  const stored = await findAgent(ctx, id)
  if (input.datastoreIds) await checkDatastores(ctx, input.datastoreIds)
  const prisma = await getPrisma()
  const agent = await prisma.agent.update({
    where: { id },
    data: {
      ...agentColumns(input),
      ...(input.appearance && { appearance: mergeAppearance(stored.appearance, input.appearance) }),
      ...(input.tools && { tools: (await prepareTools(storeTools(input.tools, storedTools(stored.tools)), ctx)) as object[] }),
      ...(input.datastoreIds && {
        datastores: { deleteMany: {}, create: input.datastoreIds.map(datastoreId => ({ datastoreId })) },
      }),
    },
    include: withDatastores,
  })
  return toAgentResource(agent)
}

/** Lists the agent's MCP servers again (POST /api/agents/{id}/tools/refresh) and keeps what they offer now. */
export async function refreshAgentTools(ctx: TenantContext, id: string): Promise<AgentResource> {
  const stored = await findAgent(ctx, id)
  const tools: StoredTool[] = await prepareTools(storedTools(stored.tools), ctx)
  const prisma = await getPrisma()
  const agent = await prisma.agent.update({ where: { id }, data: { tools: tools as object[] }, include: withDatastores })
  return toAgentResource(agent)
}

/** §4.4: answers the agent as it was; its conversations and their messages go with it. */
export async function deleteAgent(ctx: TenantContext, id: string): Promise<AgentResource> {
  const agent = await findAgent(ctx, id)
  const prisma = await getPrisma()
  await prisma.agent.delete({ where: { id } })
  return toAgentResource(agent)
}
