import { timingSafeEqual } from 'node:crypto'
import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import { DATASOURCE_STATUSES } from '@/lib/domain/datasources'
import { metrics } from './registry'

// What GET /api/metrics answers: the registry's metrics, with the gauges read from the database at scrape time
// (datasources by status, the queue's due jobs and the oldest one's wait), so every process tells the same truth.

/** Whether `header` is `Bearer <METRICS_TOKEN>`, compared in constant time; false when no token is set. */
export function metricsTokenAccepted(header: string | null): boolean {
  const token = config().METRICS_TOKEN
  if (!token) return false
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export function metricsEnabled(): boolean {
  return Boolean(config().METRICS_TOKEN)
}

interface QueueRow {
  status: string
  count: string | number
  due: string | number
  oldest_due_seconds: string | number | null
}

async function datasourceGauges(): Promise<string> {
  const { sql, pending } = await getDatabase()
  const rows = await sql.query<QueueRow>(
    `SELECT status::text AS status, count(*) AS count,
            count(*) FILTER (WHERE status = 'pending' AND "nextRunAt" <= now() AT TIME ZONE 'UTC') AS due,
            EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - min("nextRunAt") FILTER (WHERE status = 'pending' AND "nextRunAt" <= now() AT TIME ZONE 'UTC')) AS oldest_due_seconds
       FROM "Datasource" GROUP BY status`,
  )
  const byStatus = new Map(rows.map(r => [r.status, Number(r.count)]))
  const due = rows.reduce((n, r) => n + Number(r.due), 0)
  const oldest = Math.max(0, ...rows.map(r => Number(r.oldest_due_seconds ?? 0)))
  return [
    '# HELP datasources Datasources by status',
    '# TYPE datasources gauge',
    ...DATASOURCE_STATUSES.map(s => `datasources{status="${s}"} ${byStatus.get(s) ?? 0}`),
    '# HELP sync_queue_due_jobs Datasources queued and due now',
    '# TYPE sync_queue_due_jobs gauge',
    `sync_queue_due_jobs ${due}`,
    '# HELP sync_queue_oldest_due_seconds How long the oldest due job has waited',
    '# TYPE sync_queue_oldest_due_seconds gauge',
    `sync_queue_oldest_due_seconds ${oldest.toFixed(3)}`,
    ...(pending
      ? [
          '# HELP database_statements_pending Statements sent to the embedded database\'s thread and not answered yet (the running one included)',
          '# TYPE database_statements_pending gauge',
          `database_statements_pending ${pending()}`,
        ]
      : []),
  ].join('\n')
}

/** The Prometheus text exposition of this process. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  const { registry } = metrics()
  return { contentType: registry.contentType, text: `${await registry.metrics()}\n${await datasourceGauges()}\n` }
}
