import { DuplicatesParams } from '@/lib/datastores/duplicates'
import { UpsertBody } from '@/lib/datastores/schemas'
import { upsertDocuments } from '@/lib/datastores/upsert'
import { UpsertResult } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/datastores/upsert/{datastoreId}', {
  POST: endpoint({
    summary: 'Upsert documents (spec §4.1)',
    description:
      'A new document whose text a datasource of the datastore already holds gets that id in `ids` and is listed in `duplicates` ({index, datasourceId, name}), not indexed again; `?allowDuplicates=true` indexes a copy.',
    access: { scope: 'datastores:write' },
    query: DuplicatesParams,
    body: UpsertBody,
    response: UpsertResult,
    aliases: ['/datastores/upsert/{datastoreId}'],
    handler: ({ ctx, params, query, body }) => upsertDocuments(ctx, params.datastoreId, body.documents, query),
  }),
})
