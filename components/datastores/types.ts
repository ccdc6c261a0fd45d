// The datastore and datasource resources as the API answers them, and the names shown for their vocabularies. Both
// come from lib/domain (leaf modules, safe in the browser); a new status or type is a compile error until labelled here.
import type { DatasourceStatus, DatasourceType } from '@/lib/domain/datasources'
import type { DatasourcePage, DatasourceResource, DatastoreResource, Fragment, QueryFilters } from '@/lib/domain/datastores'

export { ACTIVE_STATUSES, DATASOURCE_STATUSES, DATASOURCE_TYPES } from '@/lib/domain/datasources'

export type Datastore = DatastoreResource
export type Datasource = DatasourceResource

/** A page of GET /api/datastores/{id}/datasources; a ranked fragment of POST /api/datastores/{id}/query. */
export type { DatasourcePage, DatasourceStatus, DatasourceType, Fragment, QueryFilters }

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
  notion: 'Notion',
  notion_page: 'Notion page',
}

export const datastoresQueryKey = ['datastores'] as const
export const datastoreQueryKey = (id: string) => ['datastores', id] as const
export const datasourcesQueryKey = (datastoreId: string) => ['datastores', datastoreId, 'datasources'] as const
