import { synchDatasource } from '@/lib/datastores/datasources'
import { DatasourceResource } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources/{id}/synch', {
  POST: endpoint({
    summary: 'Synchronise a datasource again',
    access: { scope: 'datastores:write' },
    response: DatasourceResource,
    aliases: ['/datasources/{id}/synch'],
    handler: ({ ctx, params }) => synchDatasource(ctx, params.id),
  }),
})
