import { DatasourceListQuery } from '@/lib/datastores/content-schemas'
import { listDatasources } from '@/lib/datastores/datasources'
import { DatasourcePage } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores/{id}/datasources', {
  GET: endpoint({
    summary: "A datastore's datasources, newest first (`topLevel=true`: without a site's pages)",
    tag: 'Datasources',
    access: { scope: 'datastores:read' },
    query: DatasourceListQuery,
    response: DatasourcePage,
    handler: ({ ctx, params, query }) => listDatasources(ctx, params.id, query),
  }),
})
