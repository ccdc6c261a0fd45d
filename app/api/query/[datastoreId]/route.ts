import { DataberryQueryBody, DataberryQueryParams, queryDataberry } from '@/lib/datastores/databerry-query'
import { DataberryResults } from '@/lib/domain/datastores'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/query/{datastoreId}', {
  // Databerry's `POST /query/{datastoreId}` (proxy.ts rewrites it here): the datastore query as {results}
  POST: endpoint({
    summary: "Databerry's datastore query: {results}, topK from the body or ?topK=, 3 by default",
    description: "What LangChain's ChaindeskRetriever / DataberryRetriever read. Also `POST /query` on a host name whose first label is the datastore id.",
    access: { scope: 'datastores:read' },
    query: DataberryQueryParams,
    body: DataberryQueryBody,
    response: DataberryResults,
    audit: false,
    aliases: ['/query/{datastoreId}'],
    handler: ({ req, ctx, params, query, body }) => queryDataberry(ctx, params.datastoreId, body, query, req.signal),
  }),
})
