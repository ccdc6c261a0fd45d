import { bulkDatasources } from '@/lib/datastores/bulk'
import { BulkBody } from '@/lib/datastores/content-schemas'
import { BulkOutcome } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores/{id}/datasources/bulk', {
  POST: endpoint({
    summary: 'Re-sync or delete many datasources: the ones in `ids`, or every one in `status` ("retry all failed")',
    tag: 'Datasources',
    access: { scope: 'datastores:write' },
    body: BulkBody,
    response: BulkOutcome,
    handler: ({ ctx, params, body }) => bulkDatasources(ctx, params.id, body),
  }),
})
