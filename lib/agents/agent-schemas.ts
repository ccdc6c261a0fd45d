import { z } from 'zod'
import { AGENT_VISIBILITIES, PROMPT_TYPES } from '@/lib/domain/agents'
import { AGENT_MODEL_NAMES, QUERY_MODEL_NAMES } from '@/lib/domain/models'
import { IdParam } from '@/lib/http/body'

// The bodies of the agent endpoints (spec §2, §4.2-4.4). Unknown fields are ignored (DESIGN.md §4); known ones are
// range-checked. In the query body a null is taken as "not given", as some Chaindesk clients send nulls.

const PROMPT_MAX = 20_000
const Prompt = z.string().max(PROMPT_MAX)
const Temperature = z.number().min(0).max(1)
const PromptType = z.enum(PROMPT_TYPES)
const Visibility = z.enum(AGENT_VISIBILITIES)

const DatastoreIds = z
  .array(IdParam)
  .max(50)
  .transform(ids => [...new Set(ids)])

export const AgentCreateBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).optional(),
  modelName: z.enum(AGENT_MODEL_NAMES).optional(),
  temperature: Temperature.optional(),
  visibility: Visibility.optional(),
  systemPrompt: Prompt.nullable().optional(),
  userPrompt: Prompt.nullable().optional(),
  promptType: PromptType.nullable().optional(),
  promptTemplate: Prompt.nullable().optional(),
  datastoreIds: DatastoreIds.optional(),
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

export const QueryFiltersBody = z.object({
  custom_ids: nullable(z.array(z.string().min(1).max(256)).max(100)),
  datasource_ids: nullable(z.array(IdParam).max(100)),
})

export const AgentQueryBody = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(16_000),
  conversationId: nullable(IdParam),
  visitorId: nullable(VisitorId),
  temperature: nullable(Temperature),
  streaming: nullable(z.boolean()),
  modelName: nullable(z.enum(QUERY_MODEL_NAMES)),
  // a cap well above any answer a chat needs, and within what current models accept
  maxTokens: nullable(z.number().int().positive().max(32_768)),
  presencePenalty: nullable(z.number().min(-2).max(2)),
  frequencyPenalty: nullable(z.number().min(-2).max(2)),
  topP: nullable(z.number().min(0).max(1)),
  filters: nullable(QueryFiltersBody),
  systemPrompt: nullable(Prompt),
  userPrompt: nullable(Prompt),
  promptType: nullable(PromptType),
  promptTemplate: nullable(Prompt),
})
export type AgentQuery = z.infer<typeof AgentQueryBody>
