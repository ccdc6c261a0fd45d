import type { TenantContext } from '@/lib/auth/tenant'
import { getPrisma } from '@/lib/db/client'
import { NotFound } from '@/lib/http/errors'
import { toDatastoreResource, type DatastoreResource } from './datastore-resource'

export async function listDatastores(ctx: TenantContext): Promise<DatastoreResource[]> {
  const prisma = await getPrisma()
  const stores = await prisma.datastore.findMany({
    where: { organizationId: ctx.organizationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  })
  return stores.map(toDatastoreResource)
}

/** The datastore if it belongs to the caller's organization; another tenant's is "not found", never "forbidden". */
export async function findDatastore(ctx: TenantContext, id: string) {
  const prisma = await getPrisma()
  const store = await prisma.datastore.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!store) throw new NotFound('Datastore')
  return store
}
