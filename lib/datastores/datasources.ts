import { seesDatastore, type TenantContext } from '@/lib/domain/tenant'
import type { DatasourcePage } from '@/lib/domain/datastores'
import { HAS_CHILDREN, type DatasourceStatus, type DatasourceType } from '@/lib/domain/datasources'
import { getPrisma } from '@/lib/db/client'
import type { Prisma } from '@/lib/generated/prisma/client'
import { IdParam } from '@/lib/http/body'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { enqueueDatasources, refreshGroupStatus } from '@/lib/ingest/lifecycle'
import { toDatasourceResource, type DatasourceResource } from './datasource-resource'
import { findDatastore, removeOriginals } from './datastores'

export type { DatasourcePage } from '@/lib/domain/datastores'

/** The datasource if it belongs to the caller's organization, else NotFound (also for another tenant's). */
export async function findDatasource(ctx: TenantContext, id: string) {
  const prisma = await getPrisma()
  const ds = await prisma.datasource.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!ds || !seesDatastore(ctx, ds.datastoreId)) throw new NotFound('Datasource')
  return ds
}

export async function getDatasource(ctx: TenantContext, id: string): Promise<DatasourceResource> {
  const [resource] = await withGroupTotals([toDatasourceResource(await findDatasource(ctx, id))])
  return resource
}

/** A group's (a web site's) chunks and tokens are its children's: summed here, with how many children it has. */
async function withGroupTotals(items: DatasourceResource[]): Promise<DatasourceResource[]> {
  const groupIds = items.filter(d => HAS_CHILDREN[d.type]).map(d => d.id)
  if (groupIds.length === 0) return items
  const prisma = await getPrisma()
  const sums = await prisma.datasource.groupBy({
    by: ['groupId'],
    where: { groupId: { in: groupIds } },
    _count: { _all: true },
    _sum: { nbChunks: true, nbTokens: true },
  })
  const byGroup = new Map(sums.map(g => [g.groupId, g]))
  return items.map(d => {
    if (!HAS_CHILDREN[d.type]) return d
    const g = byGroup.get(d.id)
    return { ...d, nbChunks: g?._sum.nbChunks ?? 0, nbTokens: g?._sum.nbTokens ?? 0, nbChildren: g?._count._all ?? 0 }
  })
}

/** Removes the datasource, its chunks, the pages of a web site (cascades) and their stored originals. */
export async function deleteDatasource(ctx: TenantContext, id: string): Promise<DatasourceResource> {
  const ds = await findDatasource(ctx, id)
  const prisma = await getPrisma()
  const children = await prisma.datasource.findMany({ where: { groupId: ds.id }, select: { id: true } })
  await prisma.datasource.delete({ where: { id: ds.id, organizationId: ctx.organizationId } })
  await removeOriginals([ds.id, ...children.map(c => c.id)])
  // a page of a site: the site's status sums up the pages that remain
  if (ds.groupId) await refreshGroupStatus(ds.groupId)
  return toDatasourceResource(ds)
}

/** Queues the datasource for a new synchronisation (a web site rediscovers its pages); answers it as `pending`. */
export async function synchDatasource(ctx: TenantContext, id: string): Promise<DatasourceResource> {
  const ds = await findDatasource(ctx, id)
  await enqueueDatasources([ds.id])
  return getDatasource(ctx, ds.id)
}

export interface DatasourceListQuery {
  status?: DatasourceStatus[]
  type?: DatasourceType[]
  groupId?: string
  /** Only datasources of no group: a site's pages are then listed under it (groupId). */
  topLevel?: boolean
  limit: number
  cursor?: string
}

function encodeCursor(ds: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([ds.createdAt.toISOString(), ds.id])).toString('base64url')
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string]
    const createdAt = new Date(at)
    // a forged cursor must not reach the database: a time outside what timestamp(3) holds, or an id no id is like
    const year = createdAt.getUTCFullYear()
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime()) || year < 1970 || year > 9999) throw new Error('bad cursor')
    if (!IdParam.safeParse(id).success) throw new Error('bad cursor')
    return { createdAt, id }
  } catch {
    throw new InvalidRequest('Invalid cursor: pass the nextCursor of a previous page', [
      { path: 'cursor', message: 'not a cursor of this list', code: 'custom' },
    ])
  }
}

/** A datastore's datasources, newest first, filtered by status, type and site, one page at a time. */
export async function listDatasources(ctx: TenantContext, datastoreId: string, query: DatasourceListQuery): Promise<DatasourcePage> {
  const store = await findDatastore(ctx, datastoreId)
  const prisma = await getPrisma()
  const where: Prisma.DatasourceWhereInput = {
    datastoreId: store.id,
    ...(query.status?.length ? { status: { in: query.status } } : {}),
    ...(query.type?.length ? { type: { in: query.type } } : {}),
    ...(query.groupId ? { groupId: query.groupId } : query.topLevel ? { groupId: null } : {}),
  }
  const after = query.cursor ? decodeCursor(query.cursor) : null
  const pageWhere: Prisma.DatasourceWhereInput = after
    ? { AND: [where, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] }
    : where
  const [rows, total] = await Promise.all([
    prisma.datasource.findMany({ where: pageWhere, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: query.limit + 1 }),
    prisma.datasource.count({ where }),
  ])
  const page = rows.slice(0, query.limit)
  return {
    items: await withGroupTotals(page.map(toDatasourceResource)),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]) : null,
    total,
  }
}
