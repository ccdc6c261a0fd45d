// The Agent resource as GET /api/agents answers it (lib/domain/agents.ts), and the names shown for its enums.
import type { AgentResource, PublicAgentResource } from '@/lib/domain/agents'
import { AGENT_MODEL_NAMES, QUERY_MODEL_NAMES, type AgentModelName } from '@/lib/domain/models'

export { AGENT_MODEL_NAMES, QUERY_MODEL_NAMES, type AgentModelName }
export type Agent = AgentResource
/** What anyone sees of a public agent (the embeddable chat). */
export type PublicAgent = PublicAgentResource

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
