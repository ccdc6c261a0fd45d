import { ChunkListParams } from '@/lib/datastores/content-schemas'
import { listChunks } from '@/lib/datastores/datasource-content'
import { ChunkPage } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources/{id}/chunks', {
  GET: endpoint({
    summary: "A datasource's chunks in order, with where each comes from (page, sheet, slide)",
    access: { scope: 'datastores:read' },
    query: ChunkListParams,
    response: ChunkPage,
    handler: ({ ctx, params, query }) => listChunks(ctx, params.id, query),
  }),
})
