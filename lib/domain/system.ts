// GET /api/system (issue 27): the figures of the dashboard's System page, for an organization's admins. Zod schema,
// type inferred.
import { z } from 'zod'

export const SystemOverview = z
  .strictObject({
    queue: z.strictObject({
      dueJobs: z.number().int().describe("The organization's datasources queued and due now"),
      running: z.number().int(),
      oldestDueSeconds: z.number().nullable().describe('How long the oldest due one has waited'),
    }),
    failuresLastHour: z.strictObject({
      datasourcesInError: z.number().int().describe('Datasources that went into error in the last hour'),
      datasourcesInErrorTotal: z.number().int().describe('Datasources in error now'),
      webhookDeliveriesFailed: z.number().int().describe('Webhook delivery attempts that failed in the last hour (retries included)'),
      modelCallFailures: z.number().int().describe('Answers the model failed to give in the last hour'),
    }),
    modelLatency: z.strictObject({
      answers: z.number().int().describe('Answers given in the last hour by this process'),
      p50Ms: z.number().int().nullable(),
      p95Ms: z.number().int().nullable(),
    }),
    tokensToday: z.strictObject({ prompt: z.number().int(), completion: z.number().int(), day: z.string().describe('The UTC day, YYYY-MM-DD') }),
    model: z.strictObject({
      status: z.enum(['up', 'down', 'not_configured']),
      message: z.string().nullable(),
      checkedAt: z.iso.datetime(),
    }),
    worker: z.strictObject({ alive: z.number().int(), lastSeenAt: z.iso.datetime().nullable() }),
    database: z
      .strictObject({
        kind: z.enum(['pglite', 'postgres']),
        thread: z.boolean().describe('The embedded database runs in a thread of its own (DATABASE_THREAD)'),
        statementsWaiting: z.number().int().nullable().describe("Statements waiting on the embedded database's thread, the running one included; null without the thread"),
      })
      .describe("This process's database"),
  })
  .meta({ id: 'SystemOverview' })
export type SystemOverview = z.infer<typeof SystemOverview>
