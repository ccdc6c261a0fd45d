import { z } from 'zod'
import { AGENT_VISIBILITIES, PROMPT_TYPES } from '@/lib/domain/agents'
import { AGENT_MODEL_NAMES } from '@/lib/domain/models'
import { AllowedDomainsBody } from '@/lib/agents/allowed-domains'
import { APPEARANCE_DEFAULTS, AppearanceBody } from '@/lib/agents/appearance'
import type { AgentAppearance } from '@/lib/domain/agents'
import type { Agent } from './types'

// The agent form's rules: the same bounds as the API's body (lib/agents/agent-schemas.ts, AgentCreateBody and
// AgentUpdateBody), checked in the browser so a mistake is shown beside its field before anything is sent.
// tests/dashboard-agent-form.test.ts holds both to the same verdicts.

export const NAME_MAX = 200
export const DESCRIPTION_MAX = 2_000
export const PROMPT_MAX = 20_000
export const DATASTORES_MAX = 50
export const NO_ANSWER_MAX = 2_000
export const MAX_TOKENS_MAX = 32_768

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
  // the public face (issue 14): the API's own rules (lib/agents/appearance.ts, allowed-domains.ts)
  appearance: AppearanceBody.required(),
  /** One domain a line; '' means any site. */
  allowedDomains: z.string().pipe(z.transform(domainLines)).pipe(AllowedDomainsBody),
  requireSignedVisitors: z.boolean(),
  // retrieval (issue 13, components/agents/retrieval-settings.tsx): '' is no floor; '' is the built-in reply
  rewriteQuestions: z.boolean(),
  minScore: z.string().refine(v => v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) >= 0 && Number(v) <= 1), 'A number from 0 to 1, or empty'),
  noAnswerMessage: z.string().max(NO_ANSWER_MAX, `At most ${NO_ANSWER_MAX.toLocaleString('en')} characters`),
  // issue 22: the answer's length limit, which also caps what a public visitor asks for; '' is the model's own
  maxTokens: z.string().refine(v => v.trim() === '' || (Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= MAX_TOKENS_MAX), `A whole number from 1 to ${MAX_TOKENS_MAX.toLocaleString('en')}, or empty`),
})

function domainLines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map(line => line.trim())
    .filter(Boolean)
}

export type AgentFormValues = Omit<z.input<typeof AgentFormSchema>, 'appearance'> & { appearance: AgentAppearance }
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
    appearance: { ...APPEARANCE_DEFAULTS, ...agent.appearance },
    allowedDomains: (agent.allowedDomains ?? []).join('\n'),
    requireSignedVisitors: agent.requireSignedVisitors ?? false,
    rewriteQuestions: agent.rewriteQuestions ?? true,
    minScore: agent.minScore === null || agent.minScore === undefined ? '' : String(agent.minScore),
    noAnswerMessage: agent.noAnswerMessage ?? '',
    maxTokens: agent.maxTokens === null || agent.maxTokens === undefined ? '' : String(agent.maxTokens),
  }
}

/** A message per field; an appearance field's under "appearance.<field>". */
export type AgentFormErrors = Partial<Record<keyof AgentFormValues | `appearance.${keyof AgentAppearance}`, string>>

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
  appearance: APPEARANCE_DEFAULTS,
  allowedDomains: '',
  requireSignedVisitors: false,
  rewriteQuestions: true,
  minScore: '',
  noAnswerMessage: '',
  maxTokens: '',
}

/** The appearance as sent: empty suggested-question slots dropped. */
function cleanAppearance(appearance: AgentAppearance): AgentAppearance {
  return { ...appearance, suggestedQuestions: appearance.suggestedQuestions.filter(q => q.trim() !== '') }
}

/** The first message per field, or null when the values are valid. */
export function validateAgentForm(values: AgentFormValues): AgentFormErrors | null {
  const parsed = AgentFormSchema.safeParse({ ...values, appearance: cleanAppearance(values.appearance) })
  if (parsed.success) return null
  const errors: AgentFormErrors = {}
  for (const issue of parsed.error.issues) {
    const field = (issue.path[0] === 'appearance' && issue.path.length > 1 ? `appearance.${String(issue.path[1])}` : issue.path[0]) as keyof AgentFormErrors
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
    appearance: cleanAppearance(values.appearance),
    allowedDomains: domainLines(values.allowedDomains),
    requireSignedVisitors: values.requireSignedVisitors,
    rewriteQuestions: values.rewriteQuestions,
    minScore: values.minScore.trim() === '' ? null : Number(values.minScore),
    noAnswerMessage: values.noAnswerMessage.trim() ? values.noAnswerMessage : null,
    maxTokens: values.maxTokens.trim() === '' ? null : Number(values.maxTokens),
  }
}
