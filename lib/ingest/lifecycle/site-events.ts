import type { SqlDriver } from '@/lib/db/sql-driver'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import type { DatasourceEventData } from '@/lib/domain/webhooks'
import { datasourceEventOf, emitEvent } from '@/lib/webhooks'

type Tx = Pick<SqlDriver, 'query'>

export interface SiteRow {
  id: string
  organizationId: string
  datastoreId: string
  name: string
  type: string
  refreshStats: unknown
}

/**
 * A site whose pages all settled: its datasource event and `site.refreshed` with the pages added, changed, unchanged
 * (what their last synchronisation did), removed (pruned by this refresh) and failed. Queued in the caller's
 * transaction, with the status it reports.
 */
export async function emitSiteSettled(tx: Tx, site: SiteRow, status: DatasourceStatus, errorMessage: string | null): Promise<void> {
  const event = datasourceEventOf(status)
  if (!event) return
  const rows = await tx.query<{ outcome: string | null; failed: boolean; count: string | number }>(
    `SELECT "syncOutcome" AS outcome, status IN ('error', 'usage_limit_reached') AS failed, COUNT(*) AS count
       FROM "Datasource" WHERE "groupId" = $1 GROUP BY 1, 2`,
    [site.id],
  )
  const count = (test: (r: (typeof rows)[number]) => boolean) => rows.filter(test).reduce((n, r) => n + Number(r.count), 0)
  const stats = (site.refreshStats ?? {}) as { removed?: number }
  const data: DatasourceEventData = {
    datasourceId: site.id,
    datastoreId: site.datastoreId,
    name: site.name,
    type: site.type,
    status,
    errorMessage,
  }
  await emitEvent(site.organizationId, event, data, tx)
  const pages = {
    added: count(r => !r.failed && r.outcome === 'added'),
    changed: count(r => !r.failed && r.outcome === 'changed'),
    unchanged: count(r => !r.failed && r.outcome === 'unchanged'),
    removed: Number(stats.removed ?? 0),
    failed: count(r => r.failed),
  }
  await emitEvent(site.organizationId, 'site.refreshed', { ...data, pages }, tx)
}
