import { getDatabase } from '@/lib/db/client'
import type { SystemOverview } from '@/lib/domain/system'
import type { TenantContext } from '@/lib/domain/tenant'
import { NOW_UTC } from '@/lib/ingest/lifecycle/clock'
import { workersAlive } from '@/lib/ingest/worker-heartbeat'
import { answerLatency } from '@/lib/metrics/recent-answers'
import { probeModelServer } from '@/lib/models/probe'

// The System page's figures (issue 27), for a team without Prometheus: the organization's queue, what failed in the
// last hour, how fast answers came, the tokens spent today, from the database (every process's truth) and from this
// process (answer latency); with the model server's last probe and the workers' heartbeat.

const HOUR = `${NOW_UTC} - interval '1 hour'`
const TODAY = `date_trunc('day', ${NOW_UTC})`

type Row = Record<string, string | number | null>
const int = (v: string | number | null | undefined) => Number(v ?? 0)

async function queueFigures(organizationId: string): Promise<SystemOverview['queue']> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<Row>(
    `SELECT count(*) FILTER (WHERE status = 'pending' AND "nextRunAt" <= ${NOW_UTC}) AS due,
            count(*) FILTER (WHERE status = 'running' AND "leaseOwner" IS NOT NULL) AS running,
            EXTRACT(EPOCH FROM ${NOW_UTC} - min("nextRunAt") FILTER (WHERE status = 'pending' AND "nextRunAt" <= ${NOW_UTC})) AS oldest
       FROM "Datasource" WHERE "organizationId" = $1`,
    [organizationId],
  )
  return { dueJobs: int(row?.due), running: int(row?.running), oldestDueSeconds: row?.oldest == null ? null : Math.max(0, Math.round(Number(row.oldest))) }
}

async function failureFigures(organizationId: string): Promise<SystemOverview['failuresLastHour']> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<Row>(
    `SELECT (SELECT count(*) FROM "Datasource" WHERE "organizationId" = $1 AND status = 'error' AND "updatedAt" > ${HOUR}) AS errored,
            (SELECT count(*) FROM "Datasource" WHERE "organizationId" = $1 AND status = 'error') AS in_error,
            (SELECT count(*) FROM "WebhookDelivery" WHERE "organizationId" = $1 AND "lastError" IS NOT NULL AND "updatedAt" > ${HOUR}) AS webhooks,
            (SELECT count(*) FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
              WHERE c."organizationId" = $1 AND m.error IS NOT NULL AND m."createdAt" > ${HOUR}) AS answers`,
    [organizationId],
  )
  return { datasourcesInError: int(row?.errored), datasourcesInErrorTotal: int(row?.in_error), webhookDeliveriesFailed: int(row?.webhooks), modelCallFailures: int(row?.answers) }
}

async function tokensToday(organizationId: string): Promise<SystemOverview['tokensToday']> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<Row>(
    `SELECT coalesce(sum(m."promptTokens"), 0) AS prompt, coalesce(sum(m."completionTokens"), 0) AS completion, to_char(${TODAY}, 'YYYY-MM-DD') AS day
       FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
      WHERE c."organizationId" = $1 AND m."createdAt" >= ${TODAY}`,
    [organizationId],
  )
  return { prompt: int(row?.prompt), completion: int(row?.completion), day: String(row?.day) }
}

export async function systemOverview(ctx: TenantContext): Promise<SystemOverview> {
  const { organizationId } = ctx
  // the probe is cached (lib/models/probe.ts): at most one request to the model server per interval
  const [queue, failuresLastHour, tokens, probe, workers] = await Promise.all([
    queueFigures(organizationId),
    failureFigures(organizationId),
    tokensToday(organizationId),
    probeModelServer(),
    workersAlive(),
  ])
  const { status, message, checkedAt } = probe.chat
  const db = await getDatabase()
  const database = { kind: db.kind, thread: db.pending !== undefined, statementsWaiting: db.pending?.() ?? null }
  return { queue, failuresLastHour, modelLatency: answerLatency(organizationId, 3600_000), tokensToday: tokens, model: { status, message, checkedAt }, worker: workers, database }
}
