import { deleteDatastore, getDatastore, updateDatastore } from '@/lib/datastores/datastores'
import { DatastorePatchBody } from '@/lib/datastores/schemas'
import { DatastoreResource } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const aliases = ['/datastores/{id}']

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores/{id}', {
  GET: endpoint({
    summary: 'A datastore',
    access: { scope: 'datastores:read' },
    response: DatastoreResource,
    aliases,
    handler: ({ ctx, params }) => getDatastore(ctx, params.id),
  }),
  PATCH: endpoint({
    summary: 'Update a datastore',
    access: { scope: 'datastores:write' },
    body: DatastorePatchBody,
    response: DatastoreResource,
    aliases,
    handler: ({ ctx, params, body }) => updateDatastore(ctx, params.id, body),
  }),
  DELETE: endpoint({
    summary: 'Delete a datastore and its content',
    access: { scope: 'datastores:write' },
    response: DatastoreResource,
    aliases,
    handler: ({ ctx, params }) => deleteDatastore(ctx, params.id),
  }),
})
