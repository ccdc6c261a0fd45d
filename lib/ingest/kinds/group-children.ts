import { getDatabase } from '@/lib/db/client'
import type { DatasourceStatus, DatasourceType } from '@/lib/domain/datasources'
import type { Datasource } from '@/lib/generated/prisma/client'
import { LeaseLost } from '../errors'
import { createQueuedDatasources, enqueueDatasources, refreshGroupStatus, removeDatasources, renewLeases, settle } from '../lifecycle'
import { asObject, type JobContext, type StoredConfig } from './kind'

/** A child a group has stored, as matching reads it. */
export interface KnownChild {
  id: string
  config: unknown
  lastSynch: Date | null
  status: DatasourceStatus
  /** The validator of the content it holds (a page's ETag; a Notion page's last_edited_time). */
  httpEtag: string | null
}

/** A child the group found this time. */
export interface FoundChild {
  /** What identifies it among the group's children (a page's URL, a Notion page's id). */
  key: string
  name: string
  config: StoredConfig
  /** Whether the stored child still holds this content (not modified since), so is left alone. */
  current(child: KnownChild): boolean
}

export interface ChildrenOf {
  type: DatasourceType
  /** The key of a stored child, read from its config. */
  keyOf(config: StoredConfig): string
}

/** A group's stored children. */
export async function knownChildren(groupId: string): Promise<KnownChild[]> {
  const { prisma } = await getDatabase()
  return prisma.datasource.findMany({ where: { groupId }, select: { id: true, config: true, lastSynch: true, status: true, httpEtag: true } })
}

/**
 * Makes a group's stored children match those it found: new ones are created queued; known ones are queued again
 * unless `current` (then counted unchanged, costing nothing); those no longer found are removed with their chunks
 * (lifecycle/remove.ts) and counted. The group then waits for its children and answers its status.
 */
export async function matchChildren(group: Datasource, ctx: JobContext, of: ChildrenOf, found: FoundChild[]): Promise<DatasourceStatus | null> {
  const { prisma } = await getDatabase()
  ctx.signal.throwIfAborted()
  if (!(await renewLeases([group.id], ctx.workerId, ctx.leaseMs)).has(group.id)) throw new LeaseLost(group.id)
  const children = await knownChildren(group.id)
  const known = new Map(children.map(c => [of.keyOf(asObject(c.config)), c]))
  const wanted = new Set(found.map(f => f.key))
  const removed = await removeDatasources(children.filter(c => !wanted.has(of.keyOf(asObject(c.config)))).map(c => c.id))
  // this refresh's counts start here (site.refreshed): children removed now, what each child's sync does next
  await prisma.datasource.updateMany({ where: { groupId: group.id }, data: { syncOutcome: null } })
  await prisma.datasource.update({ where: { id: group.id }, data: { refreshStats: { removed: removed.length } } })
  const stored = found.filter(f => known.has(f.key))
  // a child moved (a Notion page under another parent) keeps its content, with its config up to date
  for (const f of stored.filter(f => JSON.stringify(asObject(known.get(f.key)!.config)) !== JSON.stringify(f.config))) {
    await prisma.datasource.updateMany({ where: { id: known.get(f.key)!.id, groupId: group.id }, data: { config: f.config as object } })
  }
  const skipped = stored.filter(f => f.current(known.get(f.key)!)).map(f => known.get(f.key)!.id)
  if (skipped.length > 0) await prisma.datasource.updateMany({ where: { id: { in: skipped }, groupId: group.id }, data: { syncOutcome: 'unchanged' } })
  const again = stored.filter(f => !f.current(known.get(f.key)!)).map(f => known.get(f.key)!.id)
  if (again.length > 0) {
    await prisma.datasource.updateMany({ where: { id: { in: again }, groupId: group.id }, data: { customId: group.customId } })
    await enqueueDatasources(again)
  }
  await createQueuedDatasources(
    found
      .filter(f => !known.has(f.key))
      .map(f => ({
        organizationId: group.organizationId,
        datastoreId: group.datastoreId,
        groupId: group.id,
        type: of.type,
        name: f.name,
        config: f.config as object,
        customId: group.customId,
      })),
  )
  if (!(await settle.awaitChildren(group.id, ctx.workerId))) throw new LeaseLost(group.id)
  return refreshGroupStatus(group.id)
}

/** The page limit of a group of the organization: its own limit (maxWebsitePages) else LIMIT_WEBSITE_PAGES. */
export async function pageLimitOf(organizationId: string, fallback: number): Promise<number> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId }, select: { maxWebsitePages: true } })
  return limits?.maxWebsitePages ?? fallback
}
