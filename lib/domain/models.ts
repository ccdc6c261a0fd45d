// The agent model names of spec §2 (Chaindesk's); lib/agents/model-catalogue.ts maps them to model ids.

export const AGENT_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4', 'model_4_32k'] as const
export type AgentModelName = (typeof AGENT_MODEL_NAMES)[number]

/** The names a query may override the agent's model with (spec §4.2 has no 32k variant there). */
export const QUERY_MODEL_NAMES = ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4'] as const satisfies readonly AgentModelName[]

/**
 * Chaindesk's api.yaml and docs spell the model names `gpt_*`: accepted wherever a modelName is, stored and answered
 * as the spec's `model_*` names.
 */
export const MODEL_NAME_ALIASES = {
  gpt_3_5_turbo: 'model_3_5_turbo',
  gpt_3_5_turbo_16k: 'model_3_5_turbo_16k',
  gpt_4: 'model_4',
  gpt_4_32k: 'model_4_32k',
} as const satisfies Record<string, AgentModelName>
export type ModelNameAlias = keyof typeof MODEL_NAME_ALIASES
