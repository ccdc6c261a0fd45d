// The agent and conversation resources as the API answers them (spec §2), and their vocabularies, as the database
// enums spell them (prisma/schema.prisma). The dashboard's components read these types; the server builds them.
import type { AnswerSource } from './answer-events'
import type { AgentModelName } from './models'

export const AGENT_VISIBILITIES = ['public', 'private'] as const
export type AgentVisibility = (typeof AGENT_VISIBILITIES)[number]

/** Deprecated in the spec in favour of systemPrompt and userPrompt; still honoured. */
export const PROMPT_TYPES = ['raw', 'customer_support'] as const
export type PromptType = (typeof PROMPT_TYPES)[number]

/** Where a conversation comes from: an API key, the dashboard's playground, the public chat. */
export type ConversationChannel = 'api' | 'dashboard' | 'website'

/** The Agent resource of spec §2, plus the datastores it reads and its times. */
export interface AgentResource {
  id: string
  name: string
  description: string
  modelName: AgentModelName
  temperature: number
  visibility: AgentVisibility
  systemPrompt: string | null
  userPrompt: string | null
  promptType: PromptType | null
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

export interface ConversationSummary {
  id: string
  agentId: string
  visitorId: string | null
  channel: ConversationChannel
  title: string | null
  messageCount: number
  lastMessage: { role: 'user' | 'assistant'; from: 'human' | 'agent'; preview: string; createdAt: string } | null
  createdAt: string
  updatedAt: string
}

export interface ConversationMessage {
  id: string
  role: 'user' | 'assistant'
  /** Chaindesk's name of the role (its widget, Pipedream's trigger read it). */
  from: 'human' | 'agent'
  text: string
  sources: AnswerSource[]
  promptTokens: number | null
  completionTokens: number | null
  /** Set when the model failed to answer. */
  error: string | null
  createdAt: string
}

export interface ConversationDetail extends Omit<ConversationSummary, 'lastMessage'> {
  /** Oldest first; with `?cursor=` (Chaindesk's paging) newest first, one page after the cursor's message. */
  messages: ConversationMessage[]
  /** Chaindesk's fields, which its widget reads: the AI answers (never handed to a human here), never resolved. */
  isAiEnabled: true
  status: 'UNRESOLVED'
}

/** A page of the organization's conversations, newest first (GET /api/conversations). */
export interface ConversationPage {
  items: ConversationSummary[]
  nextCursor: string | null
}
