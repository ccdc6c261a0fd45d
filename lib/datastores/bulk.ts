import type { BulkOutcome } from '@/lib/domain/datastores'
import type { TenantContext } from '@/lib/domain/tenant'
import { getPrisma } from '@/lib/db/client'
import { NotFound } from '@/lib/http/errors'
import { enqueueDatasources } from '@/lib/ingest/lifecycle'
import type { BulkBody } from './content-schemas'
import { deleteDatasource } from './datasources'
import { findDatastore } from './datastores'


/**
 * Re-syncs or deletes many datasources of a datastore at once: the ones selected (`ids`), or every one in a status
 * ("retry all failed" is `{action: "synch", status: ["error"]}`). Both go through the lifecycle, as one would.
 */
export async function bulkDatasources(ctx: TenantContext, datastoreId: string, body: BulkBody): Promise<BulkOutcome> {
  const store = await findDatastore(ctx, datastoreId)
  const prisma = await getPrisma()
  const rows = await prisma.datasource.findMany({
    where: {
      datastoreId: store.id,
      organizationId: ctx.organizationId,
      ...(body.ids ? { id: { in: body.ids } } : { status: { in: body.status } }),
    },
    select: { id: true, groupId: true },
    orderBy: { createdAt: 'asc' },
  })
  const ids = rows.map(r => r.id)
  if (body.action === 'synch') {
    await enqueueDatasources(ids)
    return { action: body.action, ids }
  }
  // groups first: their pages go with them
  for (const row of [...rows].sort((a, b) => Number(!!a.groupId) - Number(!!b.groupId))) {
    try {
      await deleteDatasource(ctx, row.id)
    } catch (error) {
      if (!(error instanceof NotFound)) throw error
    }
  }
  return { action: body.action, ids }
}
