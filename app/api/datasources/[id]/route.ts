import { deleteDatasource, getDatasource } from '@/lib/datastores/datasources'
import { DatasourcePatchBody } from '@/lib/datastores/schemas'
import { updateDatasource } from '@/lib/datastores/update-datasource'
import { DatasourceResource } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const aliases = ['/datasources/{id}']

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources/{id}', {
  GET: endpoint({
    summary: 'A datasource',
    access: { scope: 'datastores:read' },
    response: DatasourceResource,
    aliases,
    handler: ({ ctx, params }) => getDatasource(ctx, params.id),
  }),
  PATCH: endpoint({
    summary: "Update a datasource (name, a web source's refresh and crawl rules)",
    access: { scope: 'datastores:write' },
    body: DatasourcePatchBody,
    response: DatasourceResource,
    aliases,
    handler: ({ ctx, params, body }) => updateDatasource(ctx, params.id, body),
  }),
  DELETE: endpoint({
    summary: 'Delete a datasource',
    access: { scope: 'datastores:write' },
    response: DatasourceResource,
    aliases,
    handler: ({ ctx, params }) => deleteDatasource(ctx, params.id),
  }),
})
