import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { createConnection, listConnections } from '@/lib/connections/connections'
import { ConnectionCreateBody, ConnectionResource } from '@/lib/domain/connections'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/connections', {
  GET: endpoint({
    summary: "The organization's connections to other services (never their tokens)",
    tag: 'Account',
    access: { scope: 'admin' },
    response: z.array(ConnectionResource),
    handler: ({ ctx }) => listConnections(ctx),
  }),
  POST: endpoint({
    summary: 'Connect a Notion integration',
    description: 'The token is checked with Notion (GET /v1/users/me) before it is saved (400 when refused), stored encrypted and never returned.',
    tag: 'Account',
    access: { scope: 'admin' },
    body: ConnectionCreateBody,
    response: ConnectionResource,
    status: 201,
    handler: ({ ctx, body }) => createConnection(ctx, body),
  }),
})
