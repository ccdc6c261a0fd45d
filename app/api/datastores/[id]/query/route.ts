import { z } from 'zod'
import { queryDatastore } from '@/lib/datastores/query'
import { DatastoreQueryBody } from '@/lib/datastores/schemas'
import { Fragment } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores/{id}/query', {
  POST: endpoint({
    summary: 'Query a datastore (spec §4.7): ranked fragments',
    access: { scope: 'datastores:read' },
    body: DatastoreQueryBody,
    response: z.array(Fragment),
    audit: false,
    aliases: ['/datastores/{id}/query', '/datastores/query/{id}', '/api/datastores/query/{id}'],
    handler: ({ req, ctx, params, body }) => queryDatastore(ctx, params.id, body, req.signal),
  }),
})
