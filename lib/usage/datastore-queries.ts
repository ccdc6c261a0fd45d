import { getDatabase } from '@/lib/db/client'
import { usageMonth } from './agent-queries'

/**
 * Counts one datastore query in the month's usage row (shown by GET /api/usage; no limit applies to it) and in the
 * day's row (UsageDay, the usage charts), in one statement.
 */
export async function countDatastoreQuery(organizationId: string): Promise<void> {
  const { sql } = await getDatabase()
  const now = new Date()
  await sql.query(
    `WITH month AS (
       INSERT INTO "Usage" ("organizationId", "month", "datastoreQueries") VALUES ($1, $2, 1)
       ON CONFLICT ("organizationId", "month") DO UPDATE SET "datastoreQueries" = "Usage"."datastoreQueries" + 1
       RETURNING 1
     )
     INSERT INTO "UsageDay" ("organizationId", "day", "datastoreQueries") VALUES ($1, $3, 1)
     ON CONFLICT ("organizationId", "day") DO UPDATE SET "datastoreQueries" = "UsageDay"."datastoreQueries" + 1`,
    [organizationId, usageMonth(now), usageDay(now)],
  )
}

/** "2026-11-26": the day a daily counter belongs to, in UTC. */
export function usageDay(at = new Date()): string {
  return at.toISOString().slice(0, 10)
}
