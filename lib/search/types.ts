// The contract between retrieval (lib/search) and its callers (the datastore query route, agents).
import type { QueryFilters } from '@/lib/domain/datastores'

export type { Fragment, QueryFilters } from '@/lib/domain/datastores'

export interface HybridSearchInput {
  organizationId: string
  /** Only synched content of these datastores (all of the same organization) is searched. */
  datastoreIds: string[]
  query: string
  topK: number
  filters?: QueryFilters
  /** false: no reranker even when one is configured (measurements, comparisons). */
  rerank?: boolean
  signal?: AbortSignal
}
