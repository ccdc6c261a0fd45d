import type { AgentResource, PublicAgentResource } from '@/lib/domain/agents'
import type { Agent } from '@/lib/generated/prisma/client'
import { resolveAppearance } from './appearance'

// The Agent resource (lib/domain/agents.ts) from its row.

export type AgentWithDatastores = Agent & { datastores: { datastoreId: string }[] }

export function toAgentResource(agent: AgentWithDatastores): AgentResource {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    modelName: agent.modelName,
    temperature: agent.temperature,
    maxTokens: agent.maxTokens,
    visibility: agent.visibility,
    systemPrompt: agent.systemPrompt,
    userPrompt: agent.userPrompt,
    promptType: agent.promptType,
    promptTemplate: agent.promptTemplate,
    datastoreIds: agent.datastores.map(d => d.datastoreId).sort(),
    appearance: resolveAppearance(agent.appearance),
    allowedDomains: agent.allowedDomains,
    requireSignedVisitors: agent.requireSignedVisitors,
    visitorSecretPrefix: agent.visitorSecretPrefix,
    rewriteQuestions: agent.rewriteQuestions,
    minScore: agent.minScore,
    noAnswerMessage: agent.noAnswerMessage,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  }
}

export function toPublicAgentResource(agent: Agent): PublicAgentResource {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    visibility: 'public',
    appearance: resolveAppearance(agent.appearance),
    requireSignedVisitors: agent.requireSignedVisitors,
  }
}
