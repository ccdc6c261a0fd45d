// The agent and conversation resources as the API answers them (spec §2), and their vocabularies, as the database
// enums spell them (prisma/schema.prisma). The dashboard's components read these types; the server builds them.
import type { AnswerSource } from './answer-events'
import type { AgentModelName } from './models'

export const AGENT_VISIBILITIES = ['public', 'private'] as const
export type AgentVisibility = (typeof AGENT_VISIBILITIES)[number]

/** Deprecated in the spec in favour of systemPrompt and userPrompt; still honoured. */
export const PROMPT_TYPES = ['raw', 'customer_support'] as const
export type PromptType = (typeof PROMPT_TYPES)[number]

/** How much of an answer's sources a visitor of the public chat sees (the agent's organization always sees all). */
export const SOURCES_VISIBILITIES = ['none', 'titles', 'full'] as const
export type SourcesVisibility = (typeof SOURCES_VISIBILITIES)[number]
export const COLOR_SCHEMES = ['light', 'dark'] as const
export const BUBBLE_POSITIONS = ['bottom-right', 'bottom-left'] as const

/** How the public chat, its iframe and the bubble look and greet (lib/agents/appearance.ts: rules and defaults). */
export interface AgentAppearance {
  /** Shown as the chat's name; null: the agent's name. */
  displayName: string | null
  /** An https (or data:image) URL of a square picture; null: a bot icon. */
  avatarUrl: string | null
  /** "#rrggbb": the launcher, the header and the visitor's messages. */
  primaryColor: string
  colorScheme: (typeof COLOR_SCHEMES)[number]
  bubblePosition: (typeof BUBBLE_POSITIONS)[number]
  welcomeMessage: string
  /** Up to 4 questions offered before the first one is asked. */
  suggestedQuestions: string[]
  sourcesVisibility: SourcesVisibility
  /** The browser tab's title of /chat/{id}; null: the display name. */
  pageTitle: string | null
}

/** Where a conversation comes from: an API key, the dashboard's playground, the public chat. */
export type ConversationChannel = 'api' | 'dashboard' | 'website'

/** The Agent resource of spec §2, plus the datastores it reads and its times. */
export interface AgentResource {
  id: string
  name: string
  description: string
  modelName: AgentModelName
  temperature: number
  /** The answer's length limit in tokens (null: the model's own); caps what a public visitor may ask for. */
  maxTokens: number | null
  visibility: AgentVisibility
  systemPrompt: string | null
  userPrompt: string | null
  promptType: PromptType | null
  promptTemplate: string | null
  datastoreIds: string[]
  appearance: AgentAppearance
  /** Sites that may embed the public chat and query it from a browser; empty: any site. */
  allowedDomains: string[]
  /** Refuse public queries without a valid visitor signature. */
  requireSignedVisitors: boolean
  /** The first characters of the visitor signing secret (the secret is shown once); null: none yet. */
  visitorSecretPrefix: string | null
  /** Issue 13: rewrite a follow-up into a standalone search query before retrieval. */
  rewriteQuestions: boolean
  /** Fragments scoring below it are left out; null: no floor. */
  minScore: number | null
  /** What to say when nothing clears the floor (an instruction to the model); null: a built-in one. */
  noAnswerMessage: string | null
  createdAt: string
  updatedAt: string
}

/** What anyone may see of a public agent without a key (the embeddable chat page shows it). */
export interface PublicAgentResource {
  id: string
  name: string
  description: string
  visibility: 'public'
  appearance: AgentAppearance
  requireSignedVisitors: boolean
}

export interface ConversationSummary {
  id: string
  agentId: string
  /** Left out of a key-less read of a public agent's conversation (issue 22). */
  visitorId?: string | null
  /** The visitor id the embedding site signed (issue 14), when the conversation's visitor was verified. */
  verifiedVisitorId?: string | null
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
  /** An answer's retrieval (issue 13): the query searched (a follow-up's standalone rewrite), the best score, and
   * whether nothing cleared the floor. Null / false on questions. */
  searchQuery: string | null
  topScore: number | null
  noSources: boolean
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
