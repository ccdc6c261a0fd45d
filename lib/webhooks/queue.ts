import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'

// The delivery queue: rows of "WebhookDelivery" claimed like datasources (lib/ingest/lifecycle/claim.ts), with
// FOR UPDATE SKIP LOCKED and a lease, so that concurrent workers never send one twice at a time and a worker that
// dies leaves its deliveries to another once the lease expires. One clock: the database's, in UTC.
const NOW_UTC = `date_trunc('milliseconds', now() AT TIME ZONE 'UTC')`

export interface ClaimedDelivery {
  id: string
  organizationId: string
  endpointId: string
  event: string
  body: string
  attempts: number
  url: string
  secretCiphertext: string
}

/** Claims up to `limit` due deliveries (pending and due, or running with an expired lease) of enabled endpoints for `workerId`. */
export async function claimDeliveries(workerId: string, leaseMs: number, limit = 8): Promise<ClaimedDelivery[]> {
  const { sql } = await getDatabase()
  return sql.query<ClaimedDelivery>(
    `WITH picked AS (SELECT id FROM "WebhookDelivery"
            WHERE ((status = 'pending' AND "nextRunAt" <= ${NOW_UTC}) OR (status = 'running' AND "leaseExpiresAt" < ${NOW_UTC}))
              -- a disabled endpoint's deliveries wait until it is enabled again
              AND EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e.id = "endpointId" AND e.enabled)
            ORDER BY "nextRunAt", id LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE "WebhookDelivery" d
        SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = ${NOW_UTC} + make_interval(secs => $2),
            attempts = d.attempts + 1, "updatedAt" = ${NOW_UTC}
       FROM picked, "WebhookEndpoint" e
      WHERE d.id = picked.id AND e.id = d."endpointId"
     RETURNING d.id, d."organizationId", d."endpointId", d.event, d.body, d.attempts, e.url, e."secretCiphertext"`,
    [workerId, leaseMs / 1000, limit],
  )
}

export type DeliveryResult = { ok: true; status: number } | { ok: false; status: number | null; error: string; permanent: boolean }

/**
 * Records an attempt of a delivery this worker holds: delivered; failed for good (a refused address, or the last
 * attempt); or back to pending after a backoff of WEBHOOK_RETRY_BASE_SECONDS × 2^(attempt−1), at most an hour.
 */
export async function settleDelivery(delivery: ClaimedDelivery, workerId: string, result: DeliveryResult): Promise<'delivered' | 'failed' | 'pending'> {
  const { sql } = await getDatabase()
  const env = config()
  const ending = result.ok ? 'delivered' : result.permanent || delivery.attempts >= env.WEBHOOK_MAX_ATTEMPTS ? 'failed' : 'pending'
  const delay = Math.min(env.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (delivery.attempts - 1), 3600)
  const error = result.ok ? null : result.error.slice(0, 500)
  await sql.query(
    `UPDATE "WebhookDelivery" SET status = $3, "responseStatus" = $4, "lastError" = $5,
            "deliveredAt" = CASE WHEN $3 = 'delivered' THEN ${NOW_UTC} ELSE "deliveredAt" END,
            "nextRunAt" = CASE WHEN $3 = 'pending' THEN ${NOW_UTC} + make_interval(secs => $6) ELSE "nextRunAt" END,
            "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
      WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running'`,
    [delivery.id, workerId, ending, result.status, error, delay],
  )
  return ending
}

/** Gives deliveries back at shutdown, the attempt not counted. */
export async function releaseDeliveries(ids: string[], workerId: string): Promise<void> {
  if (ids.length === 0) return
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "WebhookDelivery" SET status = 'pending', attempts = GREATEST(attempts - 1, 0), "leaseOwner" = NULL, "leaseExpiresAt" = NULL
      WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running'`,
    [ids, workerId],
  )
}

/** "Send again": the delivery goes back to the queue, due now, with its attempts reset. */
export async function requeueDelivery(id: string): Promise<void> {
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "WebhookDelivery" SET status = 'pending', attempts = 0, "nextRunAt" = ${NOW_UTC}, "leaseOwner" = NULL,
            "leaseExpiresAt" = NULL, "lastError" = NULL, "updatedAt" = ${NOW_UTC}
      WHERE id = $1`,
    [id],
  )
}
