// Request shapes of the datasource view and bulk actions (README "Content you can see"), validated at the edge.
import { z } from 'zod'
import { DATASOURCE_STATUSES } from '@/lib/domain/datasources'
import { BULK_ACTIONS } from '@/lib/domain/datastores'
import { DatasourceListParams } from './schemas'

/** GET /api/datastores/{id}/datasources, with `topLevel=true`: a site's pages are left out (listed with groupId). */
export const DatasourceListQuery = DatasourceListParams.extend({
  topLevel: z.enum(['true', 'false']).transform(v => v === 'true').optional(),
})

/** GET /api/datasources/{id}/chunks */
export const ChunkListParams = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  after: z.coerce.number().int().min(-1).optional(),
})

/** POST /api/datastores/{id}/datasources/bulk: the datasources named by `ids`, or all of the datastore's in `status`. */
export const BulkBody = z
  .object({
    action: z.enum(BULK_ACTIONS),
    ids: z.array(z.string().trim().min(1).max(128)).min(1).max(1000).optional(),
    status: z.array(z.enum(DATASOURCE_STATUSES)).min(1).optional(),
  })
  .refine(b => !!b.ids !== !!b.status, { message: 'give either ids or status', path: ['ids'] })

export type BulkBody = z.infer<typeof BulkBody>
