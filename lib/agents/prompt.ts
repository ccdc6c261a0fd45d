import type { ModelMessage } from 'ai'
import type { Fragment } from '@/lib/search/types'

// Prompt assembly: the system prompt, the retrieved context, the recent history, then the user prompt with the query.
// `{query}` and `{context}` in a prompt are replaced (in one pass, so a query that contains "{context}" stays as typed).

export const DEFAULT_SYSTEM_PROMPT = [
  'You are a helpful assistant that answers questions using the context provided to you,',
  'which was retrieved from the documents of the organization you work for.',
  'Answer only from that context and the conversation so far. If the context does not contain the answer,',
  'say plainly that you do not know rather than making one up. Answer in the language of the question.',
].join(' ')

export const DEFAULT_USER_PROMPT = '{query}'

/** Told to the model when nothing in the documents cleared the agent's floor (issue 13), unless the agent sets its own. */
export const NO_SOURCES_NOTICE = 'No passage of the documents is relevant to this question.'
export const DEFAULT_NO_ANSWER_INSTRUCTION = [
  'Do not answer from general knowledge or from the conversation alone: say in one or two sentences that the',
  'documents do not cover this, and invite the user to rephrase or to ask something else. A greeting or thanks may',
  'be answered briefly.',
].join(' ')

// promptType "customer_support" (deprecated in the spec, still honoured): Chaindesk's built-in support persona. The
// offer of a person is made only by an agent that can keep it: one given the request_human tool (issue 23).
const supportPrompt = (whenUnknown: string) =>
  [
    'You are a customer support agent. Give a helpful, friendly and professional answer to the customer\'s question,',
    'using only the context below, taken from the company\'s documentation. If the context does not contain the answer,',
    `${whenUnknown}; never invent policies, prices or procedures. Keep answers short and answer in the language of the customer.`,
  ].join(' ')

export const CUSTOMER_SUPPORT_SYSTEM_PROMPT = supportPrompt('say that you do not know')
export const CUSTOMER_SUPPORT_HANDOFF_PROMPT = supportPrompt(
  'say that you do not know and offer to put the customer in touch with a human (call the request_human tool when they accept or ask for a person)',
)

export const CUSTOMER_SUPPORT_USER_PROMPT = 'Customer question: {query}'

export interface PromptSettings {
  systemPrompt?: string | null
  userPrompt?: string | null
  promptType?: 'raw' | 'customer_support' | null
  promptTemplate?: string | null
  /** The agent has the request_human tool: the support persona offers a person. */
  canRequestHuman?: boolean
}

export interface HistoryMessage {
  role: 'user' | 'assistant'
  text: string
}

export interface AssembledPrompt {
  system: string
  messages: ModelMessage[]
}

const PLACEHOLDER = /\{(query|context)\}/g

function fill(template: string, values: { query: string; context: string }) {
  return template.replace(PLACEHOLDER, (_, name: 'query' | 'context') => values[name])
}

export function formatContext(fragments: Fragment[]): string {
  if (fragments.length === 0) return '(No relevant content was found in the documents.)'
  return fragments.map((f, i) => `[${i + 1}] Source: ${f.source}\n${f.text.trim()}`).join('\n\n')
}

/**
 * Which templates apply: a systemPrompt / userPrompt wins; else the deprecated promptType: `raw` uses
 * promptTemplate as the user prompt, `customer_support` the built-in support templates (with promptTemplate, when
 * set, as extra instructions); else the defaults.
 */
export function resolveTemplates(settings: PromptSettings): { system: string; user: string } {
  const template = settings.promptTemplate?.trim() ? settings.promptTemplate : null
  let system = DEFAULT_SYSTEM_PROMPT
  let user = DEFAULT_USER_PROMPT
  if (settings.promptType === 'customer_support') {
    const persona = settings.canRequestHuman ? CUSTOMER_SUPPORT_HANDOFF_PROMPT : CUSTOMER_SUPPORT_SYSTEM_PROMPT
    system = template ? `${persona}\n\nInstructions:\n${template}` : persona
    user = CUSTOMER_SUPPORT_USER_PROMPT
  } else if (settings.promptType === 'raw' && template) {
    user = template
  }
  if (settings.systemPrompt?.trim()) system = settings.systemPrompt
  if (settings.userPrompt?.trim()) user = settings.userPrompt
  return { system, user }
}

export function assemblePrompt(input: {
  query: string
  fragments: Fragment[]
  history: HistoryMessage[]
  settings: PromptSettings
  /** Set when nothing cleared the floor: the agent's "I don't know" instruction (null: the default one). */
  noSources?: { instruction: string | null }
}): AssembledPrompt {
  const templates = resolveTemplates(input.settings)
  const values = { query: input.query, context: formatContext(input.fragments) }
  const contextPlaced = templates.system.includes('{context}') || templates.user.includes('{context}')
  let system = fill(templates.system, values)
  // the context always reaches the model: after the system prompt when no template places it
  if (!contextPlaced) system += `\n\nContext:\n${values.context}`
  if (input.noSources) system += `\n\n${NO_SOURCES_NOTICE} ${input.noSources.instruction?.trim() || DEFAULT_NO_ANSWER_INSTRUCTION}`
  let user = fill(templates.user, values)
  if (!templates.user.includes('{query}')) user += `\n\n${input.query}`
  const history: ModelMessage[] = input.history.map(m => ({ role: m.role, content: m.text }))
  return { system, messages: [...history, { role: 'user', content: user }] }
}
