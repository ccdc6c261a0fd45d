// The account's resources as the API answers them: API keys, usage this month and per day. zod schemas, types inferred.
import { z } from 'zod'
import { SCOPES } from './access'
import { CONVERSATION_CHANNELS } from './agents'

const time = z.iso.datetime()

export const ApiKeyResource = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it'),
    createdAt: time,
    lastUsedAt: time.nullable(),
    revokedAt: time.nullable(),
    scopes: z.array(z.enum(SCOPES)).describe('What the key may do; empty: everything'),
    datastoreIds: z.array(z.string()).describe('The datastores it may see; empty: all'),
    agentIds: z.array(z.string()).describe('The agents it may see; empty: all'),
    expiresAt: time.nullable().describe('After it the key is refused (401); null: never'),
  })
  .meta({ id: 'ApiKey' })
export type ApiKeyResource = z.infer<typeof ApiKeyResource>

/** A new key with its secret, answered this once. */
export const CreatedApiKey = ApiKeyResource.extend({ secret: z.string() })

/** GET /api/usage: this month's counters of the caller's organization, with the limits that apply to it. */
export const UsageReport = z.strictObject({
  month: z.string().describe('"2026-11" (UTC); counters reset when the month changes'),
  agentQueries: z.strictObject({ used: z.number().int(), limit: z.number().int() }),
  storedTokens: z.strictObject({ used: z.number().int(), limit: z.number().int() }).describe("Tokens of content currently stored in the organization's datasources (not monthly)"),
  datastoreQueries: z.strictObject({ used: z.number().int() }),
  modelTokens: z.strictObject({ prompt: z.number().int(), completion: z.number().int() }).describe('Tokens sent to and received from the chat model this month by agent queries'),
  feedback: z.strictObject({ good: z.number().int(), bad: z.number().int() }).describe('Votes on answers given this month'),
})
export type UsageReport = z.infer<typeof UsageReport>

const DayCounts = z.strictObject({
  questions: z.number().int(),
  good: z.number().int(),
  bad: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
})
export type DayCounts = z.infer<typeof DayCounts>

export const DailyUsage = z.strictObject({
  from: z.string(),
  to: z.string(),
  days: z.array(DayCounts.extend({ day: z.string(), datastoreQueries: z.number().int().nullable() })),
  byAgent: z.array(DayCounts.extend({ agentId: z.string(), agentName: z.string() })),
  byChannel: z.array(DayCounts.extend({ channel: z.enum(CONVERSATION_CHANNELS) })),
})
export type DailyUsage = z.infer<typeof DailyUsage>
