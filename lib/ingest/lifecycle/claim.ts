import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import type { DatasourceType } from '@/lib/domain/datasources'
import { BACKGROUND, leaseUntil, NOW_UTC } from './clock'

/**
 * Claims up to `limit` due datasources for `workerId` (of `types` only, when given), in one statement with
 * FOR UPDATE SKIP LOCKED so that concurrent workers (on Postgres) never claim the same row: a `running` one whose
 * worker's lease expired (the worker died) comes first, then queued ones (`pending`, due), content a user added
 * before background work, oldest first. Each becomes `running`, leased to the worker until now + leaseMs, attempts + 1.
 * A job whose lease this worker itself let expire is not taken again by it (it may still be running it: a slow
 * machine can pass a short lease between two claims); another worker takes it over.
 */
export async function claimDatasources(workerId: string, leaseMs: number, options: { limit?: number; types?: readonly DatasourceType[] } = {}): Promise<Datasource[]> {
  const limit = options.limit ?? 1
  if (limit <= 0 || options.types?.length === 0) return []
  const ofTypes = options.types ? `AND type::text = ANY($4::text[])` : `AND $4::text[] IS NULL`
  return claim(`SELECT id, rank, due FROM due ORDER BY rank, due, id LIMIT $3`, ofTypes, [workerId, leaseMs / 1000, limit, options.types ?? null])
}

/**
 * The next due datasource and, when it is of one of `batched` types, up to `limit` − 1 more of those among the
 * `limit` due next, in one statement: the worker's claim of a batch (two claims and two reads a batch cost the
 * embedded database ~20 ms a batch on a queue of 1,500 documents, issue 28).
 */
export async function claimBatchOf(workerId: string, leaseMs: number, limit: number, batched: readonly DatasourceType[]): Promise<Datasource[]> {
  if (limit <= 0) return []
  return claim(
    `SELECT id, rank, due FROM (SELECT id, rank, due, type::text = ANY($4::text[]) AS batched,
                                       first_value(type::text = ANY($4::text[])) OVER (ORDER BY rank, due, id) AS first_batched,
                                       row_number() OVER (ORDER BY rank, due, id) AS n
                                  FROM due) o
      WHERE n = 1 OR (first_batched AND batched) ORDER BY n LIMIT $3`,
    `AND $4::text[] IS NOT NULL`,
    [workerId, leaseMs / 1000, limit, batched],
  )
}

/**
 * The claim's statement: `picked` (a SELECT of id, rank, due from `due`, the due rows in claim order's terms, at
 * most $3 of each source) becomes the worker's; `ofTypes` filters both sources. Parameters: worker, lease seconds,
 * limit, $4 as the callers use it.
 */
async function claim(picked: string, ofTypes: string, params: unknown[]): Promise<Datasource[]> {
  const { sql, prisma } = await getDatabase()
  const claimed = await sql.query<{ id: string; rank: number; due: Date | null }>(
    `WITH expired AS (SELECT id, type, 0 AS rank, "leaseExpiresAt" AS due FROM "Datasource"
            WHERE status = 'running' AND "leaseExpiresAt" < ${NOW_UTC} AND "leaseOwner" IS DISTINCT FROM $1 ${ofTypes}
            ORDER BY "leaseExpiresAt", id LIMIT $3 FOR UPDATE SKIP LOCKED),
          queued AS (SELECT id, type, CASE WHEN ${BACKGROUND} THEN 2 ELSE 1 END AS rank, "nextRunAt" AS due FROM "Datasource"
            WHERE status = 'pending' AND ("nextRunAt" IS NULL OR "nextRunAt" <= ${NOW_UTC}) ${ofTypes}
            ORDER BY ${BACKGROUND}, "nextRunAt", id LIMIT $3 FOR UPDATE SKIP LOCKED),
          due AS (SELECT * FROM expired UNION ALL SELECT * FROM queued),
          picked AS (${picked})
     UPDATE "Datasource" d
        SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = ${leaseUntil('$2')}, attempts = attempts + 1, "updatedAt" = ${NOW_UTC}
       FROM picked WHERE d.id = picked.id
     RETURNING d.id, picked.rank, picked.due`,
    params,
  )
  if (claimed.length === 0) return []
  // rows deleted between the claim and the read are simply missing
  const rows = await prisma.datasource.findMany({ where: { id: { in: claimed.map(c => c.id) } } })
  // RETURNING has no order: the claim's is rank, then due time, then id
  claimed.sort((a, b) => a.rank - b.rank || Number(a.due ?? 0) - Number(b.due ?? 0) || (a.id < b.id ? -1 : 1))
  const order = new Map(claimed.map((c, i) => [c.id, i]))
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
}

/** The next due datasource for `workerId`, by the rules of claimDatasources, or null (also when the one claimed was deleted meanwhile: the caller polls again). */
export async function claimNextDatasource(workerId: string, leaseMs: number): Promise<Datasource | null> {
  return (await claimDatasources(workerId, leaseMs))[0] ?? null
}

/** Extends this worker's leases on running jobs; returns the ids it still holds (the others were taken over, re-queued or deleted). */
export async function renewLeases(ids: string[], workerId: string, leaseMs: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const { sql } = await getDatabase()
  const rows = await sql.query<{ id: string }>(
    `UPDATE "Datasource" SET "leaseExpiresAt" = ${leaseUntil('$3')}
      WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running' RETURNING id`,
    [ids, workerId, leaseMs / 1000],
  )
  return new Set(rows.map(r => r.id))
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
