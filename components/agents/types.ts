// The Agent resource as GET /api/agents answers it (lib/agents/agent-resource.ts), and the names shown for its enums.

export const AGENT_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4', 'model_4_32k'] as const
/** An agent query may override the model with these only (spec §2). */
export const QUERY_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4'] as const
export type AgentModelName = (typeof AGENT_MODEL_NAMES)[number]
export type QueryModelName = (typeof QUERY_MODEL_NAMES)[number]

export const MODEL_LABELS: Record<AgentModelName, string> = {
  model_3_5_turbo: 'GPT-3.5 Turbo',
  model_3_5_turbo_16k: 'GPT-3.5 Turbo 16k',
  model_4: 'GPT-4',
  model_4_32k: 'GPT-4 32k',
}

export interface Agent {
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

/** What anyone sees of a public agent (the embeddable chat). */
export interface PublicAgent {
  id: string
  name: string
  description: string
  visibility: 'public'
}

export const agentsQueryKey = ['agents'] as const
export const agentQueryKey = (id: string) => ['agents', id] as const
