import { getDatabase } from '@/lib/db/client'
import type { DatasourceStatus as Status } from '@/lib/domain/datasources'
import { NOW_UTC } from './clock'
import { emitSiteSettled, type SiteRow } from './site-events'

/**
 * Sets a group's (a web site's) status from its children's (its pages'): any page still pending or running → running; else synched when at
 * least one page is (errorMessage says how many failed), usage_limit_reached when the limit stopped them all, else
 * error with the first page's reason. Called whenever one of its pages finishes, and when discovery ends. A site
 * whose discovery is running (leased) is left alone: its worker calls this when done.
 */
export async function refreshGroupStatus(siteId: string): Promise<Status | null> {
  const { sql } = await getDatabase()
  return sql.transaction(async tx => {
    const [site] = await tx.query<SiteRow & { leaseOwner: string | null; status: Status }>(
      `SELECT id, "organizationId", "datastoreId", name, type::text AS type, "refreshStats", status, "leaseOwner" FROM "Datasource" WHERE id = $1 FOR UPDATE`,
      [siteId],
    )
    if (!site || site.leaseOwner) return null
    const rows = await tx.query<{ status: Status; count: string | number; reason: string | null }>(
      `SELECT status, COUNT(*) AS count, MIN("errorMessage") AS reason FROM "Datasource" WHERE "groupId" = $1 GROUP BY status`,
      [siteId],
    )
    const count = (s: Status) => Number(rows.find(r => r.status === s)?.count ?? 0)
    const total = rows.reduce((n, r) => n + Number(r.count), 0)
    if (total === 0) return null
    const failed = count('error') + count('usage_limit_reached')
    let status: Status
    let message: string | null = null
    if (count('pending') + count('running') + count('unsynched') > 0) {
      status = 'running'
    } else if (count('synched') > 0) {
      status = 'synched'
      if (failed > 0) message = `${failed} of ${total} pages could not be synchronised`
    } else if (count('usage_limit_reached') > 0) {
      status = 'usage_limit_reached'
      message = rows.find(r => r.status === 'usage_limit_reached')?.reason ?? 'Usage limit reached'
    } else {
      status = 'error'
      message = `None of the ${total} pages could be synchronised: ${rows.find(r => r.status === 'error')?.reason ?? 'unknown reason'}`
    }
    await tx.query(
      `UPDATE "Datasource" SET status = $2, "errorMessage" = $3, "updatedAt" = ${NOW_UTC}
              ${status === 'running' ? '' : `, "lastSynch" = ${NOW_UTC}`}
        WHERE id = $1`,
      [siteId, status, message],
    )
    // the site's synchronisation ends now (its last page settled): tell the organization's webhooks
    if (site.status === 'running' && status !== 'running') await emitSiteSettled(tx, site, status, message)
    return status
  })
}
