import { getDatabase } from '@/lib/db/client'
import { usageMonth } from './agent-queries'

/** Counts one datastore query in the month's usage row (shown by GET /api/usage; no limit applies to it). */
export async function countDatastoreQuery(organizationId: string): Promise<void> {
  const { sql } = await getDatabase()
  await sql.query(
    `INSERT INTO "Usage" ("organizationId", "month", "datastoreQueries") VALUES ($1, $2, 1)
     ON CONFLICT ("organizationId", "month") DO UPDATE SET "datastoreQueries" = "Usage"."datastoreQueries" + 1`,
    [organizationId, usageMonth()],
  )
}
