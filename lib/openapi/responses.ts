// The response shapes of the OpenAPI document (lib/openapi/document.ts), as JSON Schema. The request shapes are
// generated from the zod schemas the routes validate with; the responses are TypeScript types (lib/domain), written
// out here.

type Schema = Record<string, unknown>

const str = { type: 'string' }
const strOrNull = { type: ['string', 'null'] }
const time = { type: 'string', format: 'date-time' }
const int = { type: 'integer' }
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({ type: 'object', properties, required })
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

export const RESPONSE_SCHEMAS: Record<string, Schema> = {
  Error: obj({
    error: obj({ code: str, message: str, details: {}, id: { type: 'string', description: 'Set on a 500: the id in the log' } }, ['code', 'message']),
  }),
  Fragment: obj({
    text: str,
    score: { type: 'number', description: "Relevance in [0, 1], comparable across queries: the reranker's, else normalised BM25 (and cosine similarity with embeddings); README: Scores" },
    source: str,
    datasource_id: str,
    datasource_name: str,
    custom_id: strOrNull,
    metadata: { type: 'object' },
  }),
  AnswerSource: obj({ text: str, score: { type: 'number' }, source: str, datasource_id: str, datasource_name: str }),
  AgentAnswer: obj({ answer: str, conversationId: str, visitorId: str, messageId: str, sources: { type: 'array', items: ref('AnswerSource') } }),
  Agent: obj({
    id: str,
    name: str,
    description: str,
    modelName: { enum: ['model_3_5_turbo', 'model_3_5_turbo_16k', 'model_4', 'model_4_32k'] },
    temperature: { type: 'number' },
    maxTokens: { type: ['integer', 'null'], description: "The answer's length limit in tokens; caps a public visitor's maxTokens; null: the model's own" },
    visibility: { enum: ['public', 'private'] },
    systemPrompt: strOrNull,
    userPrompt: strOrNull,
    promptType: { enum: ['raw', 'customer_support', null] },
    promptTemplate: strOrNull,
    datastoreIds: { type: 'array', items: str },
    appearance: ref('AgentAppearance'),
    allowedDomains: { type: 'array', items: str, description: 'Sites that may frame the chat and query it from a browser; empty: any' },
    requireSignedVisitors: { type: 'boolean' },
    visitorSecretPrefix: { ...strOrNull, description: 'The start of the visitor signing secret (shown once when rotated)' },
    rewriteQuestions: { type: 'boolean', description: 'Follow-ups are rewritten into standalone search queries before retrieval (README: Retrieval)' },
    minScore: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'Relevance floor: fragments scoring below it are not given to the model; null: none' },
    noAnswerMessage: { ...strOrNull, description: 'Instruction given to the model when nothing clears the floor; null: a built-in one' },
    createdAt: time,
    updatedAt: time,
  }),
  PublicAgent: obj({ id: str, name: str, description: str, visibility: { const: 'public' }, appearance: ref('AgentAppearance'), requireSignedVisitors: { type: 'boolean' } }),
  // lib/agents/appearance.ts: every field has a default (README: Put an agent on your site)
  AgentAppearance: obj({
    displayName: strOrNull,
    avatarUrl: strOrNull,
    primaryColor: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
    colorScheme: { enum: ['light', 'dark'] },
    bubblePosition: { enum: ['bottom-right', 'bottom-left'] },
    welcomeMessage: str,
    suggestedQuestions: { type: 'array', items: str, maxItems: 4 },
    sourcesVisibility: { enum: ['none', 'titles', 'full'], description: "What a visitor sees of an answer's sources; the organization sees all" },
    pageTitle: strOrNull,
  }),
  Datastore: { type: 'object', description: 'The datastore resource (README: Datastores)', properties: { id: str, name: str }, required: ['id', 'name'] },
  Datasource: {
    type: 'object',
    description: 'The Datasource of spec §2 with its synchronisation fields',
    properties: { id: str, datastoreId: str, type: str, name: str, status: str, groupId: strOrNull, config: { type: 'object' }, custom_id: strOrNull, lastSynch: strOrNull, createdAt: time, updatedAt: time },
    required: ['id', 'type', 'name', 'status'],
  },
  ConversationMessage: obj({
    id: str,
    role: { enum: ['user', 'assistant'] },
    from: { enum: ['human', 'agent'], description: "Chaindesk's name of the role" },
    text: str,
    sources: { type: 'array', items: ref('AnswerSource') },
    promptTokens: { type: ['integer', 'null'] },
    completionTokens: { type: ['integer', 'null'] },
    error: strOrNull,
    searchQuery: { ...strOrNull, description: "An answer's search: a follow-up's standalone rewrite, else the question (README: Retrieval)" },
    topScore: { type: ['number', 'null'], description: "The best fragment's score before the floor" },
    noSources: { type: 'boolean', description: "True when the agent reads datastores and nothing cleared its floor: it was told to say it does not know" },
    createdAt: time,
  }),
  ConversationSummary: obj({ id: str, agentId: str, visitorId: strOrNull, verifiedVisitorId: strOrNull, channel: { enum: ['api', 'dashboard', 'website'] }, title: strOrNull, messageCount: int, lastMessage: { type: ['object', 'null'] }, createdAt: time, updatedAt: time }),
  Conversation: obj({
    id: str,
    agentId: str,
    visitorId: { ...strOrNull, description: 'Left out of a read without a key (issue 22)' },
    channel: str,
    title: strOrNull,
    messageCount: int,
    isAiEnabled: { const: true },
    status: { const: 'UNRESOLVED' },
    messages: { type: 'array', items: ref('ConversationMessage'), description: 'Oldest first; with ?cursor= newest first (Chaindesk paging)' },
    createdAt: time,
    updatedAt: time,
  }, ['id', 'agentId', 'channel', 'title', 'messageCount', 'isAiEnabled', 'status', 'messages', 'createdAt', 'updatedAt']),
  ApiKey: { type: 'object', properties: { id: str, name: str, prefix: str, secret: { type: 'string', description: 'Only when created' } }, required: ['id', 'name'] },
}

export const page = (item: string): Schema => obj({ items: { type: 'array', items: ref(item) }, nextCursor: strOrNull })
export const arrayOf = (item: string): Schema => ({ type: 'array', items: ref(item) })
export const schemaRef = ref
