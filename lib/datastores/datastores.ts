import { seesDatastore, visibleIds, type TenantContext } from '@/lib/domain/tenant'
import { removeStoredOriginal } from '@/lib/db/blob-store'
import { getPrisma } from '@/lib/db/client'
import type { Datastore } from '@/lib/generated/prisma/client'
import type { SearchLanguage } from '@/lib/domain/languages'
import { refreshHours, type RefreshInterval } from '@/lib/domain/refresh'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { REFRESHABLE_TYPES } from '@/lib/ingest/kinds'
import { rescheduleRefreshes } from '@/lib/ingest/lifecycle'
import { logger } from '@/lib/logger'
import { forEachBounded } from './bounded'
import { toDatastoreResource, type DatastoreCounts, type DatastoreResource } from './datastore-resource'

export interface DatastoreInput {
  name: string
  description?: string | null
  visibility?: 'public' | 'private'
  chunkSize?: number
  chunkOverlap?: number
  /** The default refresh interval of its web sources. */
  refreshInterval?: RefreshInterval
  /** The text search language of its chunks and questions (english by default). */
  language?: SearchLanguage
}

export type DatastorePatch = Partial<DatastoreInput>

async function countsOf(organizationId: string, datastoreIds: string[]): Promise<Map<string, DatastoreCounts>> {
  const counts = new Map<string, DatastoreCounts>()
  if (datastoreIds.length === 0) return counts
  const prisma = await getPrisma()
  const groups = await prisma.datasource.groupBy({
    by: ['datastoreId'],
    where: { organizationId, datastoreId: { in: datastoreIds } },
    _count: { _all: true },
    _sum: { nbChunks: true },
  })
  // a site's pages are listed under it: the dashboard says how many of the datasources they are (issue 22)
  const pages = await prisma.datasource.groupBy({
    by: ['datastoreId'],
    where: { organizationId, datastoreId: { in: datastoreIds }, groupId: { not: null } },
    _count: { _all: true },
  })
  const pagesOf = new Map(pages.map(p => [p.datastoreId, p._count._all]))
  for (const g of groups) counts.set(g.datastoreId, { nbDatasources: g._count._all, nbSitePages: pagesOf.get(g.datastoreId) ?? 0, nbChunks: g._sum.nbChunks ?? 0 })
  return counts
}

async function withCounts(store: Datastore): Promise<DatastoreResource> {
  return toDatastoreResource(store, (await countsOf(store.organizationId, [store.id])).get(store.id))
}

export async function listDatastores(ctx: TenantContext): Promise<DatastoreResource[]> {
  const prisma = await getPrisma()
  const stores = await prisma.datastore.findMany({
    where: { organizationId: ctx.organizationId, ...visibleIds(ctx.grant?.datastoreIds) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  })
  const counts = await countsOf(ctx.organizationId, stores.map(s => s.id))
  return stores.map(s => toDatastoreResource(s, counts.get(s.id)))
}

/** The datastore if it belongs to the caller's organization; another tenant's is "not found", never "forbidden". */
export async function findDatastore(ctx: TenantContext, id: string) {
  const prisma = await getPrisma()
  const store = seesDatastore(ctx, id) ? await prisma.datastore.findFirst({ where: { id, organizationId: ctx.organizationId } }) : null
  if (!store) throw new NotFound('Datastore')
  return store
}

function checkChunking(size: number, overlap: number) {
  if (overlap >= size) {
    throw new InvalidRequest('chunkOverlap must be smaller than chunkSize', [
      { path: 'chunkOverlap', message: `must be smaller than chunkSize (${size})`, code: 'too_big' },
    ])
  }
}

export async function createDatastore(ctx: TenantContext, input: DatastoreInput): Promise<DatastoreResource> {
  const prisma = await getPrisma()
  checkChunking(input.chunkSize ?? 512, input.chunkOverlap ?? 64)
  const store = await prisma.datastore.create({
    data: {
      organizationId: ctx.organizationId,
      name: input.name,
      description: input.description ?? null,
      visibility: input.visibility,
      chunkSize: input.chunkSize,
      chunkOverlap: input.chunkOverlap,
      refreshHours: input.refreshInterval === undefined ? undefined : refreshHours(input.refreshInterval),
      language: input.language,
    },
  })
  return toDatastoreResource(store)
}

export async function getDatastore(ctx: TenantContext, id: string): Promise<DatastoreResource> {
  return withCounts(await findDatastore(ctx, id))
}

export async function updateDatastore(ctx: TenantContext, id: string, patch: DatastorePatch): Promise<DatastoreResource> {
  const store = await findDatastore(ctx, id)
  checkChunking(patch.chunkSize ?? store.chunkSize, patch.chunkOverlap ?? store.chunkOverlap)
  const prisma = await getPrisma()
  const updated = await prisma.datastore.update({
    where: { id: store.id, organizationId: ctx.organizationId },
    data: {
      name: patch.name,
      description: patch.description,
      visibility: patch.visibility,
      chunkSize: patch.chunkSize,
      chunkOverlap: patch.chunkOverlap,
      refreshHours: patch.refreshInterval === undefined ? undefined : refreshHours(patch.refreshInterval),
      // a new language: a trigger indexes its chunks again, with their statistics, in this statement
      language: patch.language,
    },
  })
  // its web sources that follow its default count their next refresh from now
  if (patch.refreshInterval !== undefined) await rescheduleRefreshes({ datastoreId: store.id }, REFRESHABLE_TYPES)
  return withCounts(updated)
}

/** Removes the datastore with its datasources and chunks (foreign-key cascades) and their stored originals. */
export async function deleteDatastore(ctx: TenantContext, id: string): Promise<DatastoreResource> {
  const store = await findDatastore(ctx, id)
  const resource = await withCounts(store)
  const prisma = await getPrisma()
  const datasources = await prisma.datasource.findMany({ where: { datastoreId: store.id }, select: { id: true } })
  await prisma.datastore.delete({ where: { id: store.id, organizationId: ctx.organizationId } })
  await removeOriginals(datasources.map(d => d.id))
  return resource
}

/** Deletes the stored originals of datasources whose rows are gone; a failure leaves an orphan file, logged. */
export async function removeOriginals(datasourceIds: string[]): Promise<void> {
  await forEachBounded(datasourceIds, 16, async id => {
    try {
      await removeStoredOriginal(id)
    } catch (error) {
      logger.warn('could not remove a datasource original', { datasourceId: id, error })
    }
  })
}
