import { config as settings } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import type { Datasource } from '@/lib/generated/prisma/client'
import { LeaseLost, permanentError } from '../errors'
import { createQueuedDatasources, enqueueDatasources, refreshGroupStatus, removeDatasources, renewLeases, settle } from '../lifecycle'
import { discoverPages, type SiteConfig } from '../web/discover'
import { rulesOf } from '../web/rules'
import { asObject, configText, type JobContext } from './kind'
import { pageConfig, webPageKind } from './web-page'

type Child = { id: string; config: unknown; lastSynch: Date | null; status: DatasourceStatus }

/**
 * Discovers the site's pages (its crawl rules applied: include and exclude patterns, maxPages under the
 * organization's page limit, maxDepth of a crawl), then makes its children match them, one queued `web_page` per
 * URL: new URLs get a child; known ones are queued again (a conditional fetch and their content hash make an
 * unchanged page cheap), except those whose sitemap <lastmod> is not after their last sync; pages no longer found are
 * removed with their chunks (lifecycle/remove.ts) and counted. The site then waits for its pages.
 */
export async function syncWebSite(site: Datasource, ctx: JobContext): Promise<DatasourceStatus | null> {
  const { prisma } = await getDatabase()
  const config = asObject(site.config)
  const rules = rulesOf(config)
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId: site.organizationId }, select: { maxWebsitePages: true } })
  const orgLimit = limits?.maxWebsitePages ?? settings().LIMIT_WEBSITE_PAGES
  const limit = Math.min(rules.maxPages ?? orgLimit, orgLimit)
  const { urls, lastmod } = await discoverPages(config as SiteConfig, { limit, signal: ctx.signal, rules })
  if (urls.length === 0) throw permanentError('No pages were found: no sitemap lists any page of this site (its crawl rules applied), and its start page links to none')
  ctx.signal.throwIfAborted()
  if (!(await renewLeases([site.id], ctx.workerId, ctx.leaseMs)).has(site.id)) throw new LeaseLost(site.id)

  const children: Child[] = await prisma.datasource.findMany({ where: { groupId: site.id }, select: { id: true, config: true, lastSynch: true, status: true } })
  const urlOf = (c: Child) => configText(asObject(c.config), 'source_url') ?? ''
  const known = new Map(children.map(c => [urlOf(c), c]))
  const wanted = new Set(urls)
  const removed = await removeDatasources(children.filter(c => !wanted.has(urlOf(c))).map(c => c.id))
  // this refresh's counts start here (site.refreshed): pages removed now, what each page's sync does next
  await prisma.datasource.updateMany({ where: { groupId: site.id }, data: { syncOutcome: null } })
  await prisma.datasource.update({ where: { id: site.id }, data: { refreshStats: { removed: removed.length } } })
  const current = (c: Child, url: string) => c.status === 'synched' && c.lastSynch !== null && (lastmod.get(url)?.getTime() ?? Infinity) <= c.lastSynch.getTime()
  const skipped = urls.filter(u => known.has(u) && current(known.get(u)!, u)).map(u => known.get(u)!.id)
  if (skipped.length > 0) await prisma.datasource.updateMany({ where: { id: { in: skipped }, groupId: site.id }, data: { syncOutcome: 'unchanged' } })
  const again = urls.filter(u => known.has(u) && !current(known.get(u)!, u)).map(u => known.get(u)!.id)
  if (again.length > 0) {
    await prisma.datasource.updateMany({ where: { id: { in: again }, groupId: site.id }, data: { customId: site.customId } })
    await enqueueDatasources(again)
  }
  await createQueuedDatasources(
    urls
      .filter(u => !known.has(u))
      .map(url => ({
        organizationId: site.organizationId,
        datastoreId: site.datastoreId,
        groupId: site.id,
        type: webPageKind.type,
        name: url,
        config: pageConfig(url),
        customId: site.customId,
      })),
  )
  if (!(await settle.awaitChildren(site.id, ctx.workerId))) throw new LeaseLost(site.id)
  return refreshGroupStatus(site.id)
}
