import type { TenantContext } from '@/lib/domain/tenant'
import { hybridSearch } from '@/lib/search/hybrid-search'
import { applyFloor } from '@/lib/search/relevance'
import type { Fragment, QueryFilters } from '@/lib/search/types'
import { countDatastoreQuery } from '@/lib/usage/datastore-queries'
import { findDatastore } from './datastores'
import type { DatastoreQueryBody } from './schemas'

/** The filters as the search takes them: null members (as some clients send) are "not given". */
export function searchFilters(filters: DatastoreQueryBody['filters']): QueryFilters | undefined {
  if (!filters) return undefined
  return { custom_ids: filters.custom_ids, datasource_ids: filters.datasource_ids, metadata: filters.metadata ?? undefined }
}

/**
 * The datastore's best fragments for the query (§4.7), over its synched content only, filters applied first, those
 * scoring below `minScore` left out.
 */
export async function queryDatastore(ctx: TenantContext, datastoreId: string, body: DatastoreQueryBody, signal?: AbortSignal): Promise<Fragment[]> {
  const store = await findDatastore(ctx, datastoreId)
  const [fragments] = await Promise.all([
    hybridSearch({
      organizationId: ctx.organizationId,
      datastoreIds: [store.id],
      query: body.query,
      topK: body.topK,
      filters: searchFilters(body.filters),
      signal,
    }),
    countDatastoreQuery(ctx.organizationId),
  ])
  return applyFloor(fragments, body.minScore).fragments
}
