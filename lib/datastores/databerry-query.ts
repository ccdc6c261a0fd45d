import { z } from 'zod'
import type { Fragment } from '@/lib/domain/datastores'
import type { TenantContext } from '@/lib/domain/tenant'
import { queryDatastore } from './query'
import { DatastoreQueryBody } from './schemas'

// Databerry's query endpoint (`POST /query/{datastoreId}`, and `POST /query` on the datastore's own host name), as
// LangChain's ChaindeskRetriever / DataberryRetriever call it: the datastore query, answered as `{"results": [...]}`,
// with `topK` from the body or `?topK=`, 3 when neither gives it (Databerry's default).

export const DATABERRY_TOP_K = 3

export const DataberryQueryBody = DatastoreQueryBody.extend({ topK: DatastoreQueryBody.shape.topK.removeDefault().optional() })
export const DataberryQueryParams = z.object({ topK: z.coerce.number().pipe(DatastoreQueryBody.shape.topK.removeDefault()).optional() })

export async function queryDataberry(
  ctx: TenantContext,
  datastoreId: string,
  body: z.infer<typeof DataberryQueryBody>,
  params: z.infer<typeof DataberryQueryParams>,
  signal?: AbortSignal,
): Promise<{ results: Fragment[] }> {
  const topK = body.topK ?? params.topK ?? DATABERRY_TOP_K
  return { results: await queryDatastore(ctx, datastoreId, { ...body, topK }, signal) }
}
