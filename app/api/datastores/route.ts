import { z } from 'zod'
import { createDatastore, listDatastores } from '@/lib/datastores/datastores'
import { DatastoreCreateBody } from '@/lib/datastores/schemas'
import { DatastoreResource } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const aliases = ['/datastores']

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores', {
  GET: endpoint({
    summary: "The organization's datastores",
    access: { scope: 'datastores:read' },
    response: z.array(DatastoreResource),
    aliases,
    handler: ({ ctx }) => listDatastores(ctx),
  }),
  POST: endpoint({
    summary: 'Create a datastore',
    access: { scope: 'datastores:write' },
    body: DatastoreCreateBody,
    response: DatastoreResource,
    status: 201,
    aliases,
    handler: ({ ctx, body }) => createDatastore(ctx, body),
  }),
})
