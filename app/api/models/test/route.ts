import { endpoint, endpoints } from '@/lib/api/endpoint'
import { ConnectionTestBody, ConnectionTestResult } from '@/lib/domain/model-server'
import { testModelConnection } from '@/lib/models/server-models'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/models/test', {
  POST: endpoint({
    summary: 'Test the connection: one tiny chat and one tiny embeddings call, each reported ok or failed in plain words',
    tag: 'Service',
    access: { scope: 'admin' },
    body: ConnectionTestBody,
    bodyOptional: true,
    status: 200,
    response: ConnectionTestResult,
    handler: ({ ctx, body }) => testModelConnection(ctx, body?.modelName),
  }),
})
