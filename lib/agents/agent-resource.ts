import type { Agent } from '@/lib/generated/prisma/client'
import type { AgentModelName } from './agent-schemas'

/** The Agent resource of spec §2, plus the datastores it reads and its times. */
export interface AgentResource {
  id: string
  name: string
  description: string
  modelName: AgentModelName
  temperature: number
  visibility: 'public' | 'private'
  systemPrompt: string | null
  userPrompt: string | null
  promptType: 'raw' | 'customer_support' | null
  promptTemplate: string | null
  datastoreIds: string[]
  createdAt: string
  updatedAt: string
}

/** What anyone may see of a public agent without a key (the embeddable chat page shows it). */
export interface PublicAgentResource {
  id: string
  name: string
  description: string
  visibility: 'public'
}

export type AgentWithDatastores = Agent & { datastores: { datastoreId: string }[] }

export function toAgentResource(agent: AgentWithDatastores): AgentResource {
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    modelName: agent.modelName,
    temperature: agent.temperature,
    visibility: agent.visibility,
    systemPrompt: agent.systemPrompt,
    userPrompt: agent.userPrompt,
    promptType: agent.promptType,
    promptTemplate: agent.promptTemplate,
    datastoreIds: agent.datastores.map(d => d.datastoreId).sort(),
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  }
}

export function toPublicAgentResource(agent: Agent): PublicAgentResource {
  return { id: agent.id, name: agent.name, description: agent.description, visibility: 'public' }
}
