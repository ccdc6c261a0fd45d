import type { DatasourceResource } from '@/lib/domain/datastores'
import { refreshInterval } from '@/lib/domain/refresh'
import type { Datasource } from '@/lib/generated/prisma/client'
import { asObject, publicConfigOf } from '@/lib/ingest/kinds'

export type { DatasourceResource } from '@/lib/domain/datastores'

export function toDatasourceResource(ds: Datasource): DatasourceResource {
  return {
    id: ds.id,
    datastoreId: ds.datastoreId,
    type: ds.type,
    name: ds.name,
    status: ds.status,
    groupId: ds.groupId,
    config: publicConfigOf(ds.type, ds.config),
    custom_id: ds.customId,
    metadata: ds.metadata === null ? null : asObject(ds.metadata),
    nbChunks: ds.nbChunks,
    nbTokens: ds.nbTokens,
    textSize: ds.textSize,
    errorMessage: ds.errorMessage,
    ocrPages: ds.ocrPagesTotal ? { done: ds.ocrPagesDone ?? 0, total: ds.ocrPagesTotal } : null,
    lastSynch: ds.lastSynch?.toISOString() ?? null,
    refreshInterval: refreshInterval(ds.refreshHours),
    nextRefreshAt: ds.nextRefreshAt?.toISOString() ?? null,
    createdAt: ds.createdAt.toISOString(),
    updatedAt: ds.updatedAt.toISOString(),
  }
}
