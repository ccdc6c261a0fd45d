import type { TenantContext } from '@/lib/domain/tenant'
import { hybridSearch } from '@/lib/search/hybrid-search'
import type { Fragment } from '@/lib/search/types'
import { countDatastoreQuery } from '@/lib/usage/datastore-queries'
import { findDatastore } from './datastores'
import type { DatastoreQueryBody } from './schemas'

/** The datastore's best fragments for the query (§4.7), over its synched content only, filters applied first. */
export async function queryDatastore(ctx: TenantContext, datastoreId: string, body: DatastoreQueryBody, signal?: AbortSignal): Promise<Fragment[]> {
  const store = await findDatastore(ctx, datastoreId)
  const [fragments] = await Promise.all([
    hybridSearch({
      organizationId: ctx.organizationId,
      datastoreIds: [store.id],
      query: body.query,
      topK: body.topK,
      filters: body.filters ?? undefined,
      signal,
    }),
    countDatastoreQuery(ctx.organizationId),
  ])
  return fragments
}
