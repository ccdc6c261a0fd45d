import { getDatabase } from '@/lib/db/client'
import type { DatasourceType } from '@/lib/domain/datasources'
import { NOW_UTC } from './clock'

// Scheduled refreshes (README "Schedules and webhooks"). A top-level datasource of a refreshable kind (a web page, a
// web site) has an interval in hours: its own, else its datastore's default, 0 meaning off. When it settles, its next
// refresh is set (scheduleNextRefresh); a worker queues the due ones (enqueueDueRefreshes), spread over time.

const SETTLED = `d.status IN ('synched', 'error', 'usage_limit_reached')`
const HOURS = `COALESCE(d."refreshHours", s."refreshHours", 0)`
const NEXT = `CASE WHEN ${HOURS} > 0 THEN ${NOW_UTC} + make_interval(hours => ${HOURS}) ELSE NULL END`
const schedulable = (types: string) => `s.id = d."datastoreId" AND d."groupId" IS NULL AND d.type::text = ANY(${types}::text[]) AND ${SETTLED}`

/** Sets the next refresh of these datasources, when settled: now + their interval, or none when it is off. */
export async function scheduleNextRefresh(ids: string[], types: readonly DatasourceType[]): Promise<void> {
  if (ids.length === 0 || types.length === 0) return
  const { sql } = await getDatabase()
  await sql.query(`UPDATE "Datasource" d SET "nextRefreshAt" = ${NEXT} FROM "Datastore" s WHERE d.id = ANY($1::text[]) AND ${schedulable('$2')}`, [ids, types])
}

/** After an interval changed: the settled datasources of a datastore (or these ones) count their next refresh from now. */
export async function rescheduleRefreshes(scope: { datastoreId: string } | { ids: string[] }, types: readonly DatasourceType[]): Promise<void> {
  const { sql } = await getDatabase()
  const where = 'datastoreId' in scope ? `d."datastoreId" = $1` : `d.id = ANY($1::text[])`
  await sql.query(`UPDATE "Datasource" d SET "nextRefreshAt" = ${NEXT} FROM "Datastore" s WHERE ${where} AND ${schedulable('$2')}`, [
    'datastoreId' in scope ? scope.datastoreId : scope.ids,
    types,
  ])
}

/**
 * Queues the datasources whose refresh is due, at most `limit`, claimed with FOR UPDATE SKIP LOCKED so that two
 * workers never queue one twice; only settled ones (one pending or running is never queued again). Each becomes
 * `pending`, due at a random moment within min(spreadSeconds, 0.5 s × how many are due), so a thousand due pages
 * do not all start at once. Settled ones without a next refresh (a worker stopped before scheduling it) get one.
 * Returns the ids queued.
 */
export async function enqueueDueRefreshes(types: readonly DatasourceType[], options: { spreadSeconds: number; limit?: number }): Promise<string[]> {
  if (types.length === 0) return []
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "Datasource" d SET "nextRefreshAt" = ${NEXT} FROM "Datastore" s
      WHERE d."nextRefreshAt" IS NULL AND ${HOURS} > 0 AND ${schedulable('$1')}`,
    [types],
  )
  const rows = await sql.query<{ id: string }>(
    `WITH due AS (SELECT d.id FROM "Datasource" d
            WHERE d."nextRefreshAt" <= ${NOW_UTC} AND d."groupId" IS NULL AND d.type::text = ANY($1::text[]) AND ${SETTLED}
            ORDER BY d."nextRefreshAt", d.id LIMIT $3 FOR UPDATE SKIP LOCKED),
          n AS (SELECT count(*) AS total FROM due)
     UPDATE "Datasource" d
        SET status = 'pending', "nextRunAt" = ${NOW_UTC} + make_interval(secs => random() * LEAST($2::float8, n.total * 0.5)),
            "nextRefreshAt" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, attempts = 0, "errorMessage" = NULL, "updatedAt" = ${NOW_UTC}
       FROM due, n WHERE d.id = due.id
     RETURNING d.id`,
    [types, options.spreadSeconds, options.limit ?? 1000],
  )
  return rows.map(r => r.id)
}
