import { extractedText } from '@/lib/datastores/datasource-content'
import { ExtractedText } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datasources/{id}/text', {
  GET: endpoint({
    summary: 'The text extracted from the stored original, in sections (null for a web page)',
    access: { scope: 'datastores:read' },
    response: ExtractedText,
    handler: ({ ctx, params }) => extractedText(ctx, params.id),
  }),
})
