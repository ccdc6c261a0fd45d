// The Agent resource as GET /api/agents answers it (lib/agents/agent-resource.ts), and the names shown for its enums.
// Type-only imports: they are erased from the browser bundle, so no server module comes with them.
import type { AgentResource, PublicAgentResource } from '@/lib/agents/agent-resource'

export type Agent = AgentResource
/** What anyone sees of a public agent (the embeddable chat). */
export type PublicAgent = PublicAgentResource
export type AgentModelName = Agent['modelName']

export const AGENT_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4', 'model_4_32k'] as const satisfies readonly AgentModelName[]
/** An agent query may override the model with these only (spec §2). */
export const QUERY_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4'] as const satisfies readonly AgentModelName[]
export type QueryModelName = (typeof QUERY_MODEL_NAMES)[number]

export const MODEL_LABELS: Record<AgentModelName, string> = {
  model_3_5_turbo: 'GPT-3.5 Turbo',
  model_3_5_turbo_16k: 'GPT-3.5 Turbo 16k',
  model_4: 'GPT-4',
  model_4_32k: 'GPT-4 32k',
}

/** The model's display name; its id when the dashboard does not know it. */
export const modelLabel = (name: string) => MODEL_LABELS[name as AgentModelName] ?? name

export const agentsQueryKey = ['agents'] as const
export const agentQueryKey = (id: string) => ['agents', id] as const
