// The contract between retrieval (lib/search, lib/datastores) and its callers (the datastore query route, agents).

export interface QueryFilters {
  custom_ids?: string[]
  datasource_ids?: string[]
}

/** One ranked piece of stored content, as the spec's "datastore query result fragment" plus custom_id and metadata. */
export interface Fragment {
  text: string
  /** Higher is better; see README "Scores". */
  score: number
  /** The page URL, else the document's metadata.source, else the datasource's name. */
  source: string
  datasource_id: string
  datasource_name: string
  custom_id: string | null
  metadata: Record<string, unknown>
}

export interface HybridSearchInput {
  organizationId: string
  /** Only synched content of these datastores (all of the same organization) is searched. */
  datastoreIds: string[]
  query: string
  topK: number
  filters?: QueryFilters
  signal?: AbortSignal
}
