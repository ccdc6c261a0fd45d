import { z } from 'zod'
import { AGENT_VISIBILITIES, PROMPT_TYPES } from '@/lib/domain/agents'
import { ANSWER_ENCODINGS } from '@/lib/domain/answer-events'
import { AGENT_MODEL_NAMES, MODEL_NAME_ALIASES, QUERY_MODEL_NAMES, type AgentModelName } from '@/lib/domain/models'
import { IdParam } from '@/lib/http/body'
import { MinScore, QueryFiltersSchema } from '@/lib/datastores/schemas'
import { AllowedDomainsBody } from './allowed-domains'
import { AppearanceBody } from './appearance'

// The bodies of the agent endpoints (spec §2, §4.2-4.4). Unknown fields are ignored (DESIGN.md §4); known ones are
// range-checked. In the query body a null is taken as "not given", as some Chaindesk clients send nulls.

const PROMPT_MAX = 20_000
const Prompt = z.string().max(PROMPT_MAX)
const Temperature = z.number().min(0).max(1)
const PromptType = z.enum(PROMPT_TYPES)
const Visibility = z.enum(AGENT_VISIBILITIES)
// a cap well above any answer a chat needs, and within what current models accept
const MaxTokens = z.number().int().positive().max(32_768)

/** A model name of the spec, or Chaindesk's `gpt_*` spelling of it (answered as the spec's name). */
function modelName<const T extends readonly AgentModelName[]>(names: T) {
  const aliases = Object.keys(MODEL_NAME_ALIASES) as (keyof typeof MODEL_NAME_ALIASES)[]
  return z.union([
    z.enum(names),
    z
      .enum(aliases)
      .transform(alias => MODEL_NAME_ALIASES[alias] as AgentModelName)
      .pipe(z.enum(names, { error: 'this model cannot be chosen here' })),
  ])
}

const DatastoreIds = z
  .array(IdParam)
  .max(50)
  .transform(ids => [...new Set(ids)])

export const AgentCreateBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).optional(),
  modelName: modelName(AGENT_MODEL_NAMES).optional(),
  temperature: Temperature.optional(),
  // issue 22: the answer's length limit, which also caps what a public visitor may ask for
  maxTokens: MaxTokens.nullable().optional(),
  visibility: Visibility.optional(),
  systemPrompt: Prompt.nullable().optional(),
  userPrompt: Prompt.nullable().optional(),
  promptType: PromptType.nullable().optional(),
  promptTemplate: Prompt.nullable().optional(),
  datastoreIds: DatastoreIds.optional(),
  // issue 14: the public face (fields given replace the stored ones), the allow-list, signed visitors only
  appearance: AppearanceBody.optional(),
  allowedDomains: AllowedDomainsBody.optional(),
  requireSignedVisitors: z.boolean().optional(),
  // issue 13: follow-ups rewritten into standalone queries, the relevance floor, the reply when nothing clears it
  rewriteQuestions: z.boolean().optional(),
  minScore: MinScore.nullable().optional(),
  noAnswerMessage: z.string().max(2_000).nullable().optional(),
})
export type AgentCreate = z.infer<typeof AgentCreateBody>

// §4.3: description is required; any other field left out keeps its value; null clears an optional prompt field
export const AgentUpdateBody = AgentCreateBody.extend({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string({ error: issue => (issue.input === undefined ? 'description is required' : undefined) }).max(2_000),
})
export type AgentUpdate = z.infer<typeof AgentUpdateBody>

// §4.4: the body is an empty object (or absent); whatever it holds is ignored
export const AgentDeleteBody = z.object({}).loose()

// visitor ids may come from an embedding page's local storage: opaque, but short and plain
export const VisitorId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits, "_", "-", ".", ":" only')

const nullable = <T extends z.ZodType>(schema: T) =>
  z.preprocess(v => (v === null ? undefined : v), schema.optional())

// older Chaindesk widgets send a cleared id as "": like null, it means "none"
const absentWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess(v => (v === null || v === '' ? undefined : v), schema.optional())


export const AgentQueryBody = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(16_000),
  conversationId: absentWhenEmpty(IdParam),
  visitorId: absentWhenEmpty(VisitorId),
  // a visitor identity signed by the embedding site's server (lib/agents/visitor-signature.ts)
  visitorSignature: absentWhenEmpty(z.string().max(128)),
  visitorExpires: nullable(z.number().int().positive().max(1e11)),
  temperature: nullable(Temperature),
  streaming: nullable(z.boolean()),
  modelName: nullable(modelName(QUERY_MODEL_NAMES)),
  // issue 22: a public (key-less) query keeps only maxTokens of these overrides, capped by the agent's (query-overrides.ts)
  maxTokens: nullable(MaxTokens),
  presencePenalty: nullable(z.number().min(-2).max(2)),
  frequencyPenalty: nullable(z.number().min(-2).max(2)),
  topP: nullable(z.number().min(0).max(1)),
  filters: nullable(QueryFiltersSchema),
  // issue 13: false searches the question as typed (no standalone rewrite of a follow-up); a floor for this query
  rewriteQuestion: nullable(z.boolean().describe("false: search a follow-up as typed, not as the standalone question the model makes of it (default: the agent's rewriteQuestions)")),
  minScore: nullable(MinScore),
  systemPrompt: nullable(Prompt),
  userPrompt: nullable(Prompt),
  promptType: nullable(PromptType),
  promptTemplate: nullable(Prompt),
  // sent by Chaindesk's widget ("website") and dashboard ("dashboard"): such a client decodes percent-encoded data
  channel: nullable(z.string().max(64)),
  /** The stream's encoding, asked explicitly (DESIGN.md §7); else `chaindesk` when `channel` is sent, else `sse`. */
  streamEncoding: nullable(z.enum(ANSWER_ENCODINGS)),
})
export type AgentQuery = z.infer<typeof AgentQueryBody>

// `?streamEncoding=chaindesk` asks for Chaindesk's percent-encoded stream as the body field does (DESIGN.md §7)
export const AgentQueryParams = z.object({ streamEncoding: z.enum(ANSWER_ENCODINGS).optional() })

// GET /api/conversations/{id}: `cursor` (the id of the oldest message seen, "" for the newest page) asks for
// Chaindesk's paging, newest first, as its widget sends it
export const ConversationReadParams = z.object({ cursor: z.union([z.literal(''), IdParam]).optional() })

// GET /api/agents/{id}/conversations: the agent's latest conversations
export const AgentConversationListParams = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) })
