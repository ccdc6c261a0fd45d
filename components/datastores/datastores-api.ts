// The datastores area's calls to the API (spec §4.5-4.7): the only module of components/datastores that knows a URL.
import { apiFetch, apiUpload } from '@/components/api-client'
import type { ChunkPage, ExtractedText } from '@/lib/domain/datastores'
import type { SearchLanguage } from '@/lib/domain/languages'
import type { RefreshInterval } from '@/lib/domain/refresh'
import type { Datasource, DatasourcePage, DatasourceStatus, DatasourceType, Datastore, Fragment, QueryFilters } from './types'

const datastorePath = (id: string) => `/api/datastores/${encodeURIComponent(id)}`
const datasourcePath = (id: string) => `/api/datasources/${encodeURIComponent(id)}`

export interface DatastoreFields {
  name: string
  description: string | null
  chunkSize?: number
  chunkOverlap?: number
  /** The refresh interval of its web sources that set none. */
  refreshInterval?: RefreshInterval
  /** Text search language of its content and questions; a change indexes its chunks again. */
  language?: SearchLanguage
}

export function listDatastores(): Promise<Datastore[]> {
  return apiFetch('/api/datastores')
}

export function getDatastore(id: string): Promise<Datastore> {
  return apiFetch(datastorePath(id))
}

export function createDatastore(body: DatastoreFields): Promise<Datastore> {
  return apiFetch('/api/datastores', { method: 'POST', json: body })
}

export function updateDatastore(id: string, body: Partial<DatastoreFields>): Promise<Datastore> {
  return apiFetch(datastorePath(id), { method: 'PATCH', json: body })
}

export function deleteDatastore(id: string): Promise<Datastore> {
  return apiFetch(datastorePath(id), { method: 'DELETE' })
}

export interface DatasourceListParams {
  limit?: number
  status?: DatasourceStatus
  type?: DatasourceType
  /** The previous page's nextCursor. */
  cursor?: string | null
  /** Only datasources of no site (a site's pages are listed with groupId). */
  topLevel?: boolean
  /** The pages of this web site. */
  groupId?: string
}

/** One page of a datastore's datasources, newest first. */
export function listDatasources(datastoreId: string, params: DatasourceListParams = {}, signal?: AbortSignal): Promise<DatasourcePage> {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) search.set(key, String(value))
  return apiFetch(`${datastorePath(datastoreId)}/datasources?${search}`, { signal })
}

export interface DatastoreQuery {
  query: string
  topK?: number
  filters?: QueryFilters
  /** Fragments scoring below it are left out (issue 13). */
  minScore?: number
}

/** The fragments an agent reading the datastore would retrieve for `body.query`, best first. */
export function queryDatastore(id: string, body: DatastoreQuery): Promise<Fragment[]> {
  return apiFetch(`${datastorePath(id)}/query`, { method: 'POST', json: body })
}

export interface WebDatasourceBody {
  datastoreId: string
  type: 'web_page' | 'web_site'
  name?: string
  /** web_page: its source_url; web_site: its root as source_url, or its sitemap, and its crawl rules. */
  config: { source_url?: string; sitemap?: string } & Partial<CrawlRules>
  /** null or absent: the datastore's. */
  refreshInterval?: RefreshInterval | null
}

/** A web site's crawl rules: path patterns kept and left out, pages at most, link depth at most. */
export interface CrawlRules {
  include: string[]
  exclude: string[]
  maxPages: number
  maxDepth: number
}

export interface DatasourcePatch {
  name?: string
  /** null: the datastore's. */
  refreshInterval?: RefreshInterval | null
  /** A web site's crawl rules (null removes one). */
  config?: { [K in keyof CrawlRules]?: CrawlRules[K] | null }
}

/** Changes a datasource's name, refresh interval or (a web site) crawl rules. */
export function updateDatasource(id: string, body: DatasourcePatch): Promise<Datasource> {
  return apiFetch(datasourcePath(id), { method: 'PATCH', json: body })
}

export function createWebDatasource(body: WebDatasourceBody): Promise<Datasource> {
  return apiFetch('/api/datasources', { method: 'POST', json: body })
}

export interface TextDocument {
  text: string
  name?: string
  metadata?: Record<string, unknown>
}

/** Adds text datasources (one per document) to a datastore. */
export function upsertDocuments(datastoreId: string, documents: TextDocument[]): Promise<{ ids: string[] }> {
  return apiFetch(`/api/datastores/upsert/${encodeURIComponent(datastoreId)}`, { method: 'POST', json: { documents } })
}

/** Uploads one file as a new datasource (answered with `duplicate: true` and the datasource holding the same file, if one does) (multipart/form-data); `onProgress` gets 0..1 as the bytes go out. */
export function uploadFile(
  datastoreId: string,
  file: File,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Datasource & { duplicate?: true }> {
  const form = new FormData()
  form.append('type', 'file')
  form.append('datastoreId', datastoreId)
  form.append('fileName', file.name)
  form.append('file', file, file.name)
  return apiUpload('/api/datasources', form, options)
}

/** Queues a datasource's synchronisation again. */
export function synchDatasource(id: string): Promise<Datasource> {
  return apiFetch(`${datasourcePath(id)}/synch`, { method: 'POST' })
}

export function deleteDatasource(id: string): Promise<Datasource> {
  return apiFetch(datasourcePath(id), { method: 'DELETE' })
}

export function getDatasource(id: string, signal?: AbortSignal): Promise<Datasource> {
  return apiFetch(datasourcePath(id), { signal })
}

/** A datasource's chunks in order, a page at a time (`after`: the previous page's nextAfter). */
export function listChunks(id: string, params: { limit?: number; after?: number | null } = {}, signal?: AbortSignal): Promise<ChunkPage> {
  const search = new URLSearchParams({ limit: String(params.limit ?? 50) })
  if (params.after !== undefined && params.after !== null) search.set('after', String(params.after))
  return apiFetch(`${datasourcePath(id)}/chunks?${search}`, { signal })
}

/** The text extracted from a datasource's stored original (null for a web page: its chunks show it). */
export function getExtractedText(id: string, signal?: AbortSignal): Promise<ExtractedText> {
  return apiFetch(`${datasourcePath(id)}/text`, { signal })
}

/** Where the browser downloads a datasource's original (the session cookie authorizes it). */
export function originalDownloadUrl(id: string): string {
  return `${datasourcePath(id)}/original`
}

/** Re-syncs or deletes the selected datasources, or all of the datastore's in a status ("retry all failed"). */
export function bulkDatasources(
  datastoreId: string,
  body: { action: 'synch' | 'delete'; ids?: string[]; status?: DatasourceStatus[] },
): Promise<{ action: string; ids: string[] }> {
  return apiFetch(`${datastorePath(datastoreId)}/datasources/bulk`, { method: 'POST', json: body })
}
