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

/** Anyone: status and database kind (a load balancer's probe). The details: a key, a session, or ?deep=1 with METRICS_TOKEN. */
export const HealthReport = z.strictObject({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  databaseBusy: z.literal(true).optional().describe('The embedded database is in a long write (a large file\'s chunks) and did not answer within a second; it is working, not down'),
  version: z.string().optional(),
  models: ModelsInForce.extend({
    lastFailure: z.strictObject({ cause: ModelFailureCause, message: z.string(), at: z.iso.datetime() }).nullable().describe("The model's last failure, with its typed cause"),
  })
    .optional()
    .describe('The models in force: endpoints and ids, never keys'),
  capacity: Capacity.optional(),
})
export type HealthReport = z.infer<typeof HealthReport>
