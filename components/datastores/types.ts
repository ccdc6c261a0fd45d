// The datastore and datasource resources as the API answers them (lib/datastores/*-resource.ts).

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

export const DATASOURCE_STATUSES = ['unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached'] as const
export const DATASOURCE_TYPES = ['file', 'web_page', 'web_site', 'text'] as const
export type DatasourceStatus = (typeof DATASOURCE_STATUSES)[number]
export type DatasourceType = (typeof DATASOURCE_TYPES)[number]

export interface Datasource {
  id: string
  datastoreId: string
  type: DatasourceType
  name: string
  status: DatasourceStatus
  groupId: string | null
  config: Record<string, unknown>
  custom_id: string | null
  metadata: Record<string, unknown> | null
  nbChunks: number
  nbTokens: number
  textSize: number
  errorMessage: string | null
  lastSynch: string | null
  createdAt: string
  updatedAt: string
}

export interface DatasourcePage {
  items: Datasource[]
  nextCursor: string | null
  total: number
}

/** A ranked fragment from POST /api/datastores/{id}/query. */
export interface Fragment {
  text: string
  score: number
  source: string
  datasource_id: string
  datasource_name: string
  custom_id?: string | null
  metadata?: Record<string, unknown>
}

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
