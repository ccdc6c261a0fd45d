import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'

/** now() as the columns hold time: timestamp(3) without time zone, in UTC (as Prisma writes them). */
export const NOW_UTC = `(now() AT TIME ZONE 'UTC')`

// The two kinds of claimable row, each found through the (status, nextRunAt) index, oldest first. COALESCE runs the
// second search only when the first finds nothing: a job whose worker died (its lease expired) is rescued before
// queued ones are started.
const NEXT_CLAIMABLE = `COALESCE(
  (SELECT id FROM "Datasource" WHERE status = 'running' AND "leaseExpiresAt" < ${NOW_UTC}
    ORDER BY "leaseExpiresAt" LIMIT 1 FOR UPDATE SKIP LOCKED),
  (SELECT id FROM "Datasource" WHERE status = 'pending' AND ("nextRunAt" IS NULL OR "nextRunAt" <= ${NOW_UTC})
    ORDER BY "nextRunAt" LIMIT 1 FOR UPDATE SKIP LOCKED))`

/**
 * Claims the next due datasource for `workerId`: a `running` one whose worker's lease expired (the worker died),
 * else a queued one (`pending`, due). In one statement, with FOR UPDATE SKIP LOCKED so that concurrent workers (on
 * Postgres) never claim the same row: status `running`, the lease ours until now + leaseMs, attempts + 1.
 */
export async function claimNextDatasource(workerId: string, leaseMs: number): Promise<Datasource | null> {
  const { sql, prisma } = await getDatabase()
  for (;;) {
    const [claimed] = await sql.query<{ id: string }>(
      `UPDATE "Datasource"
          SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = ${NOW_UTC} + make_interval(secs => $2),
              attempts = attempts + 1, "updatedAt" = ${NOW_UTC}
        WHERE id = ${NEXT_CLAIMABLE}
        RETURNING id`,
      [workerId, leaseMs / 1000],
    )
    if (!claimed) return null
    const job = await prisma.datasource.findUnique({ where: { id: claimed.id } })
    if (job) return job
    // deleted between the claim and the read: look for another
  }
}

/**
 * Claims up to `limit` more due datasources of the given `types` for `workerId`, in one statement and by the rules of
 * claimNextDatasource (expired leases first, then queued ones, oldest first, FOR UPDATE SKIP LOCKED): the worker
 * processes small jobs together, so that each statement serves several of them.
 */
export async function claimMoreDatasources(workerId: string, leaseMs: number, limit: number, types: Datasource['type'][]): Promise<Datasource[]> {
  if (limit <= 0 || types.length === 0) return []
  const { sql, prisma } = await getDatabase()
  const claimed = await sql.query<{ id: string }>(
    `UPDATE "Datasource"
        SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = ${NOW_UTC} + make_interval(secs => $2),
            attempts = attempts + 1, "updatedAt" = ${NOW_UTC}
      WHERE id IN (
        WITH expired AS (SELECT id, "leaseExpiresAt" AS due FROM "Datasource"
               WHERE status = 'running' AND "leaseExpiresAt" < ${NOW_UTC} AND type::text = ANY($4::text[])
               ORDER BY "leaseExpiresAt" LIMIT $3 FOR UPDATE SKIP LOCKED),
             queued AS (SELECT id, "nextRunAt" AS due FROM "Datasource"
               WHERE status = 'pending' AND ("nextRunAt" IS NULL OR "nextRunAt" <= ${NOW_UTC}) AND type::text = ANY($4::text[])
               ORDER BY "nextRunAt" LIMIT $3 FOR UPDATE SKIP LOCKED)
        SELECT id FROM (SELECT id, 0 AS rank, due FROM expired UNION ALL SELECT id, 1 AS rank, due FROM queued) due
         ORDER BY rank, due LIMIT $3)
      RETURNING id`,
    [workerId, leaseMs / 1000, limit, types],
  )
  if (claimed.length === 0) return []
  // rows deleted between the claim and the read are simply missing
  return prisma.datasource.findMany({ where: { id: { in: claimed.map(c => c.id) } } })
}

/** Extends the lease while the job runs; false when it is no longer ours (taken over, re-queued or deleted). */
export async function renewLease(datasourceId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const { sql } = await getDatabase()
  const rows = await sql.query(
    `UPDATE "Datasource" SET "leaseExpiresAt" = ${NOW_UTC} + make_interval(secs => $3)
      WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running' RETURNING id`,
    [datasourceId, workerId, leaseMs / 1000],
  )
  return rows.length > 0
}

/**
 * Ends a job this worker still holds: applies `assignments` (SQL, parameters from $3) and clears the lease, in one
 * conditional statement. False (and nothing written) when the lease is no longer ours.
 */
export async function settleJob(datasourceId: string, workerId: string, assignments: string, params: unknown[] = []): Promise<boolean> {
  const { sql } = await getDatabase()
  const rows = await sql.query(
    `UPDATE "Datasource" SET ${assignments}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
      WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running' RETURNING id`,
    [datasourceId, workerId, ...params],
  )
  return rows.length > 0
}

export const settle = {
  /** Content unchanged since the last synchronisation: its chunks stand. */
  unchanged: (id: string, worker: string) =>
    settleJob(id, worker, `status = 'synched', "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL`),
  error: (id: string, worker: string, message: string) =>
    settleJob(id, worker, `status = 'error', "errorMessage" = $3, "nextRunAt" = NULL`, [message]),
  /** The organization's stored-token limit would be passed: the previous chunks (and counts) stay. */
  usageLimitReached: (id: string, worker: string, message: string) =>
    settleJob(id, worker, `status = 'usage_limit_reached', "errorMessage" = $3, "nextRunAt" = NULL`, [message]),
  /** Back in the queue after `delaySeconds`, the reason visible meanwhile. */
  retry: (id: string, worker: string, message: string, delaySeconds: number) =>
    settleJob(id, worker, `status = 'pending', "errorMessage" = $3, "nextRunAt" = ${NOW_UTC} + make_interval(secs => $4)`, [message, delaySeconds]),
  /** Given back at shutdown, not counted as an attempt: any worker may take it at once. */
  release: (id: string, worker: string) =>
    settleJob(id, worker, `status = 'pending', attempts = GREATEST(attempts - 1, 0), "nextRunAt" = ${NOW_UTC}`),
}

/**
 * The embedded database at start: DATA_DIR is locked to this process, so a lease held now belongs to a worker that
 * died (kill -9, a crash, a power cut). It expires at once rather than WORKER_LEASE_SECONDS later, and the job is
 * claimed again right away. Never on Postgres, where other live workers hold leases. Returns how many expired.
 */
export async function expireLeasesOfDeadWorkers(): Promise<number> {
  const { sql } = await getDatabase()
  if (sql.kind !== 'pglite') return 0
  const rows = await sql.query(
    `UPDATE "Datasource" SET "leaseExpiresAt" = ${NOW_UTC} - interval '1 second'
      WHERE status = 'running' AND "leaseOwner" IS NOT NULL RETURNING id`,
  )
  return rows.length
}
