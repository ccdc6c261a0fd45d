// The agent and conversation resources as the API answers them (spec §2), and their vocabularies, as the database
// enums spell them (prisma/schema.prisma). Each resource is a zod schema (the response of its endpoints, the
// OpenAPI document's component) with its TypeScript type inferred; the dashboard's components read the types.
import { z } from 'zod'
import { AgentToolResource, ToolCallRecord } from './agent-tools'
import { AnswerSource } from './answer-events'
import { AGENT_MODEL_NAMES } from './models'

const time = z.iso.datetime()

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

/** Where a conversation comes from: an API key, the dashboard's playground, the public chat. */
export const CONVERSATION_CHANNELS = ['api', 'dashboard', 'website'] as const
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number]

/** How the public chat, its iframe and the bubble look and greet (lib/agents/appearance.ts: rules and defaults). */
export const AgentAppearance = z
  .strictObject({
    displayName: z.string().nullable().describe("Shown as the chat's name; null: the agent's name"),
    avatarUrl: z.string().nullable().describe('An https (or data:image) URL of a square picture; null: a bot icon'),
    primaryColor: z.string().describe('"#rrggbb": the launcher, the header and the visitor\'s messages'),
    colorScheme: z.enum(COLOR_SCHEMES),
    bubblePosition: z.enum(BUBBLE_POSITIONS),
    welcomeMessage: z.string(),
    suggestedQuestions: z.array(z.string()).max(4).describe('Offered before the first question'),
    sourcesVisibility: z.enum(SOURCES_VISIBILITIES).describe("What a visitor sees of an answer's sources; the organization sees all"),
    pageTitle: z.string().nullable().describe('The browser tab\'s title of /chat/{id}; null: the display name'),
    humanHandoff: z.boolean().describe('The chat offers "Talk to a person" (a status of HUMAN_REQUESTED for the team)'),
    markResolved: z.boolean().describe('The chat offers "Resolved" to the visitor'),
    handoffMessage: z.string().describe('The answer a query gets while a person has the conversation (the model is not called)'),
  })
  .meta({ id: 'AgentAppearance' })
export type AgentAppearance = z.infer<typeof AgentAppearance>

/** The Agent resource of spec §2, plus the datastores it reads and its times. */
export const AgentResource = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    modelName: z.enum(AGENT_MODEL_NAMES),
    temperature: z.number(),
    maxTokens: z.number().int().nullable().describe("The answer's length limit in tokens (null: the model's own); caps what a public visitor may ask for"),
    visibility: z.enum(AGENT_VISIBILITIES),
    systemPrompt: z.string().nullable(),
    userPrompt: z.string().nullable(),
    promptType: z.enum(PROMPT_TYPES).nullable(),
    promptTemplate: z.string().nullable(),
    datastoreIds: z.array(z.string()),
    appearance: AgentAppearance,
    allowedDomains: z.array(z.string()).describe('Sites that may frame the chat and query it from a browser; empty: any'),
    requireSignedVisitors: z.boolean().describe('Refuse public queries without a valid visitor signature'),
    visitorSecretPrefix: z.string().nullable().describe('The start of the visitor signing secret (shown once when rotated); null: none yet'),
    rewriteQuestions: z.boolean().describe('Follow-ups are rewritten into standalone search queries before retrieval'),
    minScore: z.number().min(0).max(1).nullable().describe('Relevance floor: fragments scoring below it are not given to the model; null: none'),
    noAnswerMessage: z.string().nullable().describe('Instruction given to the model when nothing clears the floor; null: a built-in one'),
    tools: z.array(AgentToolResource).describe('What the agent may call while it answers: HTTP APIs and MCP servers (header values masked)'),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'Agent' })
export type AgentResource = z.infer<typeof AgentResource>

/** What anyone may see of a public agent without a key (the embeddable chat page shows it). */
export const PublicAgentResource = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    visibility: z.literal('public'),
    appearance: AgentAppearance,
    requireSignedVisitors: z.boolean(),
  })
  .meta({ id: 'PublicAgent' })
export type PublicAgentResource = z.infer<typeof PublicAgentResource>

/** A new visitor signing secret, answered once (POST /api/agents/{id}/visitor-secret). */
export const VisitorSecret = z.strictObject({ secret: z.string(), prefix: z.string() })
export type VisitorSecret = z.infer<typeof VisitorSecret>

/** The support workflow (issue 23, DESIGN.md §11): Chaindesk's statuses and priorities, as its widget sends them. */
export const CONVERSATION_STATUSES = ['UNRESOLVED', 'HUMAN_REQUESTED', 'RESOLVED'] as const
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number]
export const CONVERSATION_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH'] as const
export type ConversationPriority = (typeof CONVERSATION_PRIORITIES)[number]

/** Who answers a conversation and where it stands; what an operator triages by. */
export const ConversationState = z
  .strictObject({
    id: z.string(),
    status: z.enum(CONVERSATION_STATUSES),
    isAiEnabled: z.boolean().describe('False while a person has the conversation: the model is not called'),
    assigneeId: z.string().nullable().describe('The member (user id) it is assigned to; null for key-less readers'),
    priority: z.enum(CONVERSATION_PRIORITIES),
    resolvedAt: time.nullable(),
  })
  .meta({ id: 'ConversationState' })
export type ConversationState = z.infer<typeof ConversationState>

const MessageRole = z.enum(['user', 'assistant'])
/** Chaindesk's name of the role (its widget, Pipedream's trigger read it). */
const MessageFrom = z.enum(['human', 'agent'])

export const ConversationSummary = z
  .strictObject({
    id: z.string(),
    agentId: z.string(),
    visitorId: z.string().nullable().optional().describe("Left out of a key-less read of a public agent's conversation"),
    /** The visitor id the embedding site signed (issue 14), when the conversation's visitor was verified. */
    verifiedVisitorId: z.string().nullable().optional(),
    channel: z.enum(CONVERSATION_CHANNELS),
    title: z.string().nullable(),
    messageCount: z.number().int(),
    lastMessage: z.strictObject({ role: MessageRole, from: MessageFrom, preview: z.string(), createdAt: time }).nullable(),
    createdAt: time,
    updatedAt: time,
  })
  .extend(ConversationState.omit({ id: true }).shape)
  .meta({ id: 'ConversationSummary' })
export type ConversationSummary = z.infer<typeof ConversationSummary>

export const ConversationMessage = z
  .strictObject({
    id: z.string(),
    role: MessageRole,
    from: MessageFrom,
    text: z.string(),
    sources: z.array(AnswerSource),
    promptTokens: z.number().int().nullable(),
    completionTokens: z.number().int().nullable(),
    error: z.string().nullable().describe('Set when the model failed to answer'),
    searchQuery: z.string().nullable().describe("An answer's search: a follow-up's standalone rewrite, else the question"),
    topScore: z.number().nullable().describe("The best fragment's score before the floor"),
    noSources: z.boolean().describe('True when the agent reads datastores and nothing cleared its floor'),
    toolCalls: z.array(ToolCallRecord).optional().describe("The agent's tool calls for this answer (issue 25); shown to its organization only"),
    operatorName: z.string().nullable().describe("An operator's reply: the person who wrote it; null for the model's answers"),
    createdAt: time,
  })
  .meta({ id: 'ConversationMessage' })
export type ConversationMessage = z.infer<typeof ConversationMessage>

export const ConversationDetail = ConversationSummary.omit({ lastMessage: true })
  .extend({
    messages: z.array(ConversationMessage).describe('Oldest first; with ?cursor= newest first (Chaindesk paging)'),
    /** Chaindesk's widget reads the lead's email: its lead form is shown until one is left. */
    lead: z.strictObject({ email: z.string() }).nullable().describe("The contact the visitor left in this conversation (the latest), if any"),
    awaitingApproval: z
      .boolean()
      .describe("An action of the agent waits for an operator's decision, or was just decided and its answer is being written: that answer will be appended (a chat looks again until this is false)"),
  })
  .meta({ id: 'Conversation' })
export type ConversationDetail = z.infer<typeof ConversationDetail>
