import { endpoint, endpoints } from '@/lib/api/endpoint'
import { deleteConnection, getConnection, updateConnection } from '@/lib/connections/connections'
import { ConnectionPatchBody, ConnectionResource } from '@/lib/domain/connections'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/connections/{id}', {
  GET: endpoint({
    summary: 'A connection',
    tag: 'Account',
    access: { scope: 'admin' },
    response: ConnectionResource,
    handler: ({ ctx, params }) => getConnection(ctx, params.id),
  }),
  PATCH: endpoint({
    summary: 'Rename a connection, or give it a new token (checked with Notion)',
    tag: 'Account',
    access: { scope: 'admin' },
    body: ConnectionPatchBody,
    response: ConnectionResource,
    handler: ({ ctx, params, body }) => updateConnection(ctx, params.id, body),
  }),
  DELETE: endpoint({
    summary: 'Delete a connection (its datasources fail at their next sync, saying why)',
    tag: 'Account',
    access: { scope: 'admin' },
    response: ConnectionResource,
    handler: ({ ctx, params }) => deleteConnection(ctx, params.id),
  }),
})
