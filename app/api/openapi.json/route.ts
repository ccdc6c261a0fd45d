import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { openApiDocument } from '@/lib/openapi/document'
import { apiContracts } from '../registry'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/openapi.json', {
  GET: endpoint({
    summary: 'This document: the OpenAPI 3.1 description of the whole API',
    access: 'public',
    response: z.record(z.string(), z.unknown()),
    handler: async () => openApiDocument(apiContracts()),
  }),
})
