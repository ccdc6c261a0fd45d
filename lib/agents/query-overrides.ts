import type { AgentWithDatastores } from './agent-resource'
import type { AgentQuery } from './agent-schemas'

// Issue 22: a query body may override the agent's prompts, model, sampling and retrieval floor, as Chaindesk's API
// allowed its key holders. A public (key-less) visitor must not: otherwise anyone could replace the owner's guardrails,
// choose the dearest model on the owner's bill, or lower the floor to read what the owner's floor keeps out.

/** The fields only the agent's organization (an API key, the dashboard) may override. */
export const MEMBER_ONLY_OVERRIDES = [
  'systemPrompt',
  'userPrompt',
  'promptType',
  'promptTemplate',
  'modelName',
  'temperature',
  'topP',
  'presencePenalty',
  'frequencyPenalty',
  'minScore',
  'rewriteQuestion',
] as const satisfies readonly (keyof AgentQuery)[]

/**
 * The query as it may be honoured: a member's as asked; a public visitor's without the member-only overrides and
 * with maxTokens no higher than the agent's own limit (ignored when the agent sets none: the model's default holds).
 */
export function honouredQuery(body: AgentQuery, agent: Pick<AgentWithDatastores, 'maxTokens'>, member: boolean): AgentQuery {
  if (member) return body
  const honoured: AgentQuery = { ...body }
  for (const field of MEMBER_ONLY_OVERRIDES) delete honoured[field]
  honoured.maxTokens = body.maxTokens !== undefined && agent.maxTokens !== null ? Math.min(body.maxTokens, agent.maxTokens) : undefined
  return honoured
}
