// The datastore and datasource resources as the API answers them (lib/datastores/*-resource.ts). The imports are
// type-only: erased from the browser bundle, so no server module comes with them.
import type { DatasourceResource } from '@/lib/datastores/datasource-resource'
import type { DatasourcePage } from '@/lib/datastores/datasources'
import type { Fragment } from '@/lib/search/types'

export interface Datastore {
  id: string
  name: string
  description: string | null
  visibility: 'public' | 'private'
  /** "fulltext" when the server has no embeddings provider: search then matches words only. */
  searchMode?: 'hybrid' | 'fulltext'
  chunkSize?: number
  chunkOverlap?: number
  nbDatasources?: number
  nbChunks?: number
  createdAt: string
  updatedAt: string
}

export type Datasource = DatasourceResource
export type DatasourceStatus = Datasource['status']
export type DatasourceType = Datasource['type']
export const DATASOURCE_STATUSES = ['unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached'] as const satisfies readonly DatasourceStatus[]
export const DATASOURCE_TYPES = ['file', 'web_page', 'web_site', 'text'] as const satisfies readonly DatasourceType[]

/** A page of GET /api/datastores/{id}/datasources; a ranked fragment of POST /api/datastores/{id}/query. */
export type { DatasourcePage, Fragment }

export const STATUS_LABELS: Record<DatasourceStatus, string> = {
  unsynched: 'Not synced',
  pending: 'Pending',
  running: 'Syncing',
  synched: 'Synced',
  error: 'Error',
  usage_limit_reached: 'Limit reached',
}

export const TYPE_LABELS: Record<DatasourceType, string> = {
  file: 'File',
  web_page: 'Web page',
  web_site: 'Web site',
  text: 'Text',
}

/** A datasource in one of these is being worked on: its table keeps refreshing until none is. */
export const ACTIVE_STATUSES: readonly DatasourceStatus[] = ['pending', 'running']

export const datastoresQueryKey = ['datastores'] as const
export const datastoreQueryKey = (id: string) => ['datastores', id] as const
export const datasourcesQueryKey = (datastoreId: string) => ['datastores', datastoreId, 'datasources'] as const
