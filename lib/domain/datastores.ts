// The datastore resources as the API answers them (spec §2, §4.5-4.7). Times are ISO 8601 UTC.
import type { DatasourceStatus, DatasourceType } from './datasources'
import type { SearchLanguage } from './languages'
import type { RefreshInterval } from './refresh'

export interface DatastoreResource {
  id: string
  name: string
  description: string | null
  visibility: 'public' | 'private'
  /** "hybrid" when an embeddings provider is configured, else "fulltext": search then uses words only. */
  searchMode: 'hybrid' | 'fulltext'
  /** Chunking of this datastore's content, in tokens (applies to datasources synched after a change). */
  chunkSize: number
  chunkOverlap: number
  /** The refresh interval of its web sources that set none ("off", "hourly", "daily", "weekly" or hours). */
  refreshInterval: RefreshInterval
  /** Text search language of its chunks and of the questions asked of it (lib/domain/languages.ts). */
  language: SearchLanguage
  /** Every datasource of the datastore, pages of a web site included. */
  nbDatasources: number
  /** How many of them are pages of a web site (listed under their site, not beside it). */
  nbSitePages: number
  nbChunks: number
  createdAt: string
  updatedAt: string
}

/** The spec's Datasource (§2) plus what a caller needs to follow its synchronisation. */
export interface DatasourceResource {
  id: string
  datastoreId: string
  type: DatasourceType
  name: string
  status: DatasourceStatus
  /** The web_site a discovered web_page belongs to, else null. */
  groupId: string | null
  /** The public part of the kind's config: file {fileName, mimeType, size}; web_page {source_url}; web_site {sitemap} or {source_url}; text {}. Secrets never appear here. */
  config: Record<string, unknown>
  custom_id: string | null
  /** The upserted document's metadata (text datasources), else null. */
  metadata: Record<string, unknown> | null
  nbChunks: number
  nbTokens: number
  /** Characters of extracted text at the last synchronisation. */
  textSize: number
  /** A group's (web site's) number of children (pages); its nbChunks and nbTokens are then their sums. */
  nbChildren?: number
  /** The readable reason of an `error` or `usage_limit_reached` status, else null. */
  errorMessage: string | null
  lastSynch: string | null
  /** Its own refresh interval (web sources), or null: its datastore's. */
  refreshInterval: RefreshInterval | null
  /** When it is next fetched again on its schedule, or null (no schedule, or a synchronisation under way). */
  nextRefreshAt: string | null
  createdAt: string
  updatedAt: string
}

export interface DatasourcePage {
  items: DatasourceResource[]
  /** Pass as `cursor` to get the next page; null on the last page. */
  nextCursor: string | null
  /** How many datasources match the filters, over all pages. */
  total: number
}

/** A value a metadata filter compares with (JSON equality). */
export type MetadataValue = string | number | boolean

export interface QueryFilters {
  custom_ids?: string[]
  datasource_ids?: string[]
  /** Our extension: document metadata key → a value or any of a list of values (equality; an array value contains it). */
  metadata?: Record<string, MetadataValue | MetadataValue[]>
}

/** One ranked piece of stored content, as the spec's "datastore query result fragment" plus custom_id and metadata. */
export interface Fragment {
  text: string
  /** Relevance, comparable across queries: the reranker's, else calibrated BM25 and cosine; see README "Scores". */
  score: number
  /** The page URL, else the document's metadata.source, else the datasource's name. */
  source: string
  datasource_id: string
  datasource_name: string
  custom_id: string | null
  metadata: Record<string, unknown>
}

/** A chunk as a datasource's view lists it (GET /api/datasources/{id}/chunks). */
export interface ChunkView {
  id: string
  position: number
  text: string
  tokens: number
  /** Where the chunk comes from: page, sheet, slide, title… as the loader recorded it. */
  metadata: Record<string, unknown>
}

export interface ChunkPage {
  items: ChunkView[]
  /** The position to pass as `after` for the next page; null on the last page. */
  nextAfter: number | null
  total: number
}

/** GET /api/datasources/{id}/text: the stored original's text in sections (pages, slides, sheets…); null without one (web pages). */
export interface ExtractedText {
  sections: { text: string; metadata: Record<string, unknown> }[] | null
  truncated: boolean
}
