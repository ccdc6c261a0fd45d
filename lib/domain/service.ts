// What the service says of itself without a key (GET /api/health): zod schema, type inferred.
import { z } from 'zod'
import { AGENT_MODEL_NAMES } from './models'

const ModelsInForce = z.strictObject({
  chat: z.strictObject({
    configured: z.boolean(),
    endpoint: z.string().nullable(),
    models: z.record(z.enum(AGENT_MODEL_NAMES), z.string()).nullable().describe("The model id each agent modelName is sent as"),
    problem: z.string().nullable().describe('What to set when no chat model is configured'),
  }),
  embeddings: z.strictObject({ configured: z.boolean(), endpoint: z.string().nullable(), model: z.string().nullable(), dimensions: z.number().int().nullable() }),
})

const Capacity = z.strictObject({
  database: z.enum(['pglite', 'postgres']),
  chunks: z.number().int(),
  ceiling: z.number().int().nullable().describe('Chunks the embedded database is measured to hold well; null on PostgreSQL'),
  heapBytes: z.number().optional(),
  heapMaxBytes: z.number().optional(),
  level: z.enum(['ok', 'approaching', 'over']),
  message: z.string().nullable().describe("What to do, when level is not 'ok'"),
})

const ModelFailureCause = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('http_status'), status: z.number().int() }),
  z.strictObject({ type: z.enum(['timeout', 'refused', 'dropped_stream', 'unparsable', 'stopped', 'not_configured', 'other']) }),
])

const ServerCheck = z.strictObject({
  status: z.enum(['up', 'down', 'not_configured']),
  message: z.string().nullable().describe('Why it is down, in plain words'),
  latencyMs: z.number().int().nullable(),
  checkedAt: z.iso.datetime().describe('When the (cached) probe ran: at most HEALTH_PROBE_INTERVAL_MS ago'),
})

/** ?deep=1 (issue 27): what was actually checked, not what is configured. */
const HealthChecks = z.strictObject({
  database: z.strictObject({ status: z.literal('up'), latencyMs: z.number().int() }),
  model: ServerCheck.describe('The chat model server: its model list read with the API key'),
  embeddings: ServerCheck.describe('The embeddings model: one word embedded'),
  worker: z.strictObject({
    status: z.enum(['up', 'down']),
    alive: z.number().int().describe('Workers whose heartbeat is fresh'),
    lastSeenAt: z.iso.datetime().nullable().describe("The freshest worker heartbeat, a stopped worker's included"),
    message: z.string().nullable(),
  }),
})

/** Anyone: status and database kind (a load balancer's probe). The details: a key, a session, or ?deep=1 with METRICS_TOKEN. */
export const HealthReport = z.strictObject({
  status: z.enum(['ok', 'degraded']).describe("'degraded' (with ?deep=1 only) when a check is down; the answer is a 200 either way"),
  database: z.enum(['pglite', 'postgres']),
  databaseBusy: z.literal(true).optional().describe('The embedded database is in a long write (a large file\'s chunks) and did not answer within a second; it is working, not down'),
  version: z.string().optional(),
  models: ModelsInForce.extend({
    lastFailure: z.strictObject({ cause: ModelFailureCause, message: z.string(), at: z.iso.datetime() }).nullable().describe("The model's last failure, with its typed cause"),
  })
    .optional()
    .describe('The models in force: endpoints and ids, never keys'),
  capacity: Capacity.optional(),
  checks: HealthChecks.optional().describe('With ?deep=1 and details: the model server, embeddings, database and worker, checked'),
})
export type HealthReport = z.infer<typeof HealthReport>
