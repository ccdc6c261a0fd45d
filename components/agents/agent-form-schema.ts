import { z } from 'zod'
import { AGENT_VISIBILITIES, PROMPT_TYPES } from '@/lib/domain/agents'
import { AGENT_MODEL_NAMES } from '@/lib/domain/models'
import type { Agent } from './types'

// The agent form's rules: the same bounds as the API's body (lib/agents/agent-schemas.ts, AgentCreateBody and
// AgentUpdateBody), checked in the browser so a mistake is shown beside its field before anything is sent.
// tests/dashboard-agent-form.test.ts holds both to the same verdicts.

export const NAME_MAX = 200
export const DESCRIPTION_MAX = 2_000
export const PROMPT_MAX = 20_000
export const DATASTORES_MAX = 50

export const AgentFormSchema = z.object({
  name: z.string().trim().min(1, 'Give the agent a name').max(NAME_MAX, `At most ${NAME_MAX} characters`),
  description: z.string().max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX.toLocaleString('en')} characters`),
  modelName: z.enum(AGENT_MODEL_NAMES, { error: 'Choose a model' }),
  temperature: z.number({ error: 'A number from 0 to 1' }).min(0, 'At least 0').max(1, 'At most 1'),
  visibility: z.enum(AGENT_VISIBILITIES),
  systemPrompt: z.string().max(PROMPT_MAX, `At most ${PROMPT_MAX.toLocaleString('en')} characters`),
  userPrompt: z.string().max(PROMPT_MAX, `At most ${PROMPT_MAX.toLocaleString('en')} characters`),
  datastoreIds: z.array(z.string().min(1).max(128)).max(DATASTORES_MAX, `At most ${DATASTORES_MAX} datastores`),
  /** Deprecated in the spec in favour of the two prompts; '' means none. */
  promptType: z.enum(['', ...PROMPT_TYPES]),
  promptTemplate: z.string().max(PROMPT_MAX, `At most ${PROMPT_MAX.toLocaleString('en')} characters`),
})

export type AgentFormValues = z.infer<typeof AgentFormSchema>
/** The form's values for an existing agent. */
export function agentToFormValues(agent: Agent): AgentFormValues {
  return {
    name: agent.name,
    description: agent.description ?? '',
    modelName: agent.modelName,
    temperature: agent.temperature,
    visibility: agent.visibility,
    systemPrompt: agent.systemPrompt ?? '',
    userPrompt: agent.userPrompt ?? '',
    datastoreIds: agent.datastoreIds,
    promptType: agent.promptType ?? '',
    promptTemplate: agent.promptTemplate ?? '',
  }
}

export type AgentFormErrors = Partial<Record<keyof AgentFormValues, string>>

export const EMPTY_AGENT_FORM: AgentFormValues = {
  name: '',
  description: '',
  modelName: 'model_3_5_turbo',
  temperature: 0,
  visibility: 'private',
  systemPrompt: '',
  userPrompt: '',
  datastoreIds: [],
  promptType: '',
  promptTemplate: '',
}

/** The first message per field, or null when the values are valid. */
export function validateAgentForm(values: AgentFormValues): AgentFormErrors | null {
  const parsed = AgentFormSchema.safeParse(values)
  if (parsed.success) return null
  const errors: AgentFormErrors = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof AgentFormValues
    errors[field] ??= issue.message
  }
  return errors
}

/**
 * The JSON body for POST /api/agents and PATCH /api/agents/{id}. An empty prompt is sent as null, which the API
 * takes as "use the default"; description is always sent, as PATCH requires it.
 */
export function toAgentBody(values: AgentFormValues) {
  return {
    name: values.name.trim(),
    description: values.description,
    modelName: values.modelName,
    temperature: values.temperature,
    visibility: values.visibility,
    systemPrompt: values.systemPrompt.trim() ? values.systemPrompt : null,
    userPrompt: values.userPrompt.trim() ? values.userPrompt : null,
    datastoreIds: values.datastoreIds,
    promptType: values.promptType || null,
    promptTemplate: values.promptTemplate.trim() ? values.promptTemplate : null,
  }
}
