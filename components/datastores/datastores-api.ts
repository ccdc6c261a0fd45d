// The datastores area's calls to the API (spec §4.5-4.7), by the endpoints' declarations (components/api-client.ts).
import { api, apiUpload, apiUrl, type RequestOf, type ResponseOf } from '@/components/api-client'
// type-only, erased from the browser bundle
import type { CrawlRules } from '@/lib/ingest/web/rules'

export type { CrawlRules }
export type DatastoreFields = RequestOf<'PATCH /api/datastores/{id}'>['body']
export type DatastoreQuery = RequestOf<'POST /api/datastores/{id}/query'>['body']
export type DatasourceListParams = NonNullable<RequestOf<'GET /api/datastores/{id}/datasources'>['query']>
type Body<K extends 'POST /api/datasources' | 'PATCH /api/datasources/{id}' | 'POST /api/datastores/{id}/datasources/bulk'> = RequestOf<K> extends { body: infer B } ? B : never

export const listDatastores = () => api('GET /api/datastores')
export const getDatastore = (id: string) => api('GET /api/datastores/{id}', { params: { id } })
export const createDatastore = (body: RequestOf<'POST /api/datastores'>['body']) => api('POST /api/datastores', { body })
export const updateDatastore = (id: string, body: DatastoreFields) => api('PATCH /api/datastores/{id}', { params: { id }, body })
export const deleteDatastore = (id: string) => api('DELETE /api/datastores/{id}', { params: { id } })

/** One page of a datastore's datasources, newest first. */
export const listDatasources = (id: string, query: DatasourceListParams = {}, signal?: AbortSignal) => api('GET /api/datastores/{id}/datasources', { params: { id }, query, signal })

/** The fragments an agent reading the datastore would retrieve for `body.query`, best first. */
export const queryDatastore = (id: string, body: DatastoreQuery) => api('POST /api/datastores/{id}/query', { params: { id }, body })

/** Changes a datasource's name, refresh interval or (a web site) crawl rules. */
export const updateDatasource = (id: string, body: Body<'PATCH /api/datasources/{id}'>) => api('PATCH /api/datasources/{id}', { params: { id }, body })

/** A web page or web site (the JSON form of POST /api/datasources). */
export const createWebDatasource = (body: object) => api('POST /api/datasources', { body } as RequestOf<'POST /api/datasources'>)

/** Adds text datasources (one per document) to a datastore. */
export const upsertDocuments = (datastoreId: string, documents: RequestOf<'POST /api/datastores/upsert/{datastoreId}'>['body']['documents']) =>
  api('POST /api/datastores/upsert/{datastoreId}', { params: { datastoreId }, body: { documents } })

/**
 * Uploads one file as a new datasource (multipart/form-data): answered with `duplicate: true` and the datasource
 * holding the same file, if one does; `onProgress` gets 0..1 as the bytes go out.
 */
export function uploadFile(datastoreId: string, file: File, options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {}) {
  const form = new FormData()
  form.append('type', 'file')
  form.append('datastoreId', datastoreId)
  form.append('fileName', file.name)
  form.append('file', file, file.name)
  return apiUpload<ResponseOf<'POST /api/datasources'>>(apiUrl('POST /api/datasources', {}), form, options)
}

/** Queues a datasource's synchronisation again. */
export const synchDatasource = (id: string) => api('POST /api/datasources/{id}/synch', { params: { id } })
export const deleteDatasource = (id: string) => api('DELETE /api/datasources/{id}', { params: { id } })
export const getDatasource = (id: string, signal?: AbortSignal) => api('GET /api/datasources/{id}', { params: { id }, signal })

/** A datasource's chunks in order, a page at a time (`after`: the previous page's nextAfter). */
export const listChunks = (id: string, query: { limit?: number; after?: number | null } = {}, signal?: AbortSignal) =>
  api('GET /api/datasources/{id}/chunks', { params: { id }, query: { limit: query.limit ?? 50, after: query.after ?? undefined }, signal })

/** The text extracted from a datasource's stored original (null for a web page: its chunks show it). */
export const getExtractedText = (id: string, signal?: AbortSignal) => api('GET /api/datasources/{id}/text', { params: { id }, signal })

/** Where the browser downloads a datasource's original (the session cookie authorizes it). */
export const originalDownloadUrl = (id: string) => apiUrl('GET /api/datasources/{id}/original', { params: { id } })

/** Re-syncs or deletes the selected datasources, or all of the datastore's in a status ("retry all failed"). */
export const bulkDatasources = (id: string, body: Body<'POST /api/datastores/{id}/datasources/bulk'>) => api('POST /api/datastores/{id}/datasources/bulk', { params: { id }, body })
