import { config } from '@/lib/config'
import { hybridSearch } from '@/lib/search/hybrid-search'
import type { Fragment, QueryFilters } from '@/lib/search/types'

/** The AGENT_TOP_K fragments of the agent's datastores that best match the query, within the body's filters. */
export async function retrieveFragments(input: {
  organizationId: string
  datastoreIds: string[]
  query: string
  filters?: QueryFilters
  signal?: AbortSignal
}): Promise<Fragment[]> {
  if (input.datastoreIds.length === 0) return []
  return hybridSearch({ ...input, topK: config().AGENT_TOP_K })
}
