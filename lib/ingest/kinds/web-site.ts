import { z } from 'zod'
import { config as settings } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import { HttpUrl } from '@/lib/domain/urls'
import type { Datasource } from '@/lib/generated/prisma/client'
import { LeaseLost, permanentError } from '../errors'
import { createQueuedDatasources, enqueueDatasources, refreshGroupStatus, renewLeases, settle } from '../lifecycle'
import { discoverPages, type SiteConfig } from '../web/discover'
import { configText, documentSource, type GroupKind, type JobContext } from './kind'
import { nameFromUrl, pageConfig, webPageKind } from './web-page'

const WebSiteConfig = z
  .object({ sitemap: HttpUrl.optional(), source_url: HttpUrl.optional() })
  .refine(c => c.sitemap || c.source_url, 'a web_site needs config.sitemap or config.source_url')
type WebSiteConfig = z.infer<typeof WebSiteConfig>

/** A web site: its pages are found from its sitemap (or robots.txt, /sitemap.xml, a crawl) and synched as web_page children. */
export const webSiteKind: GroupKind<'web_site'> = {
  type: 'web_site',
  sync: 'group',
  creation: {
    via: 'json',
    json: {
      configSchema: WebSiteConfig,
      // the sitemap is used first when both are given
      storedConfig: (config: WebSiteConfig) => ({
        ...(config.sitemap ? { sitemap: config.sitemap } : {}),
        ...(config.source_url ? { source_url: config.source_url } : {}),
      }),
      defaultName: (config: WebSiteConfig) => nameFromUrl(config.sitemap ?? config.source_url!),
    },
  },
  publicConfig: config => ({ ...config }),
  sourceOf: ds => configText(ds.config, 'source_url') ?? documentSource(ds),
  syncGroup: syncWebSite,
}

/**
 * Discovers the site's pages, then makes its children match them, one queued `web_page` per URL: new URLs get a
 * child, known ones are queued again (their content hash makes an unchanged page cheap), pages no longer found are
 * removed with their chunks. The site then waits for its pages.
 */
async function syncWebSite(site: Datasource, ctx: JobContext): Promise<DatasourceStatus | null> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId: site.organizationId }, select: { maxWebsitePages: true } })
  const limit = limits?.maxWebsitePages ?? settings().LIMIT_WEBSITE_PAGES
  const { urls } = await discoverPages((site.config ?? {}) as SiteConfig, { limit, signal: ctx.signal })
  if (urls.length === 0) throw permanentError('No pages were found: no sitemap lists any page of this site, and its start page links to none')
  ctx.signal.throwIfAborted()
  if (!(await renewLeases([site.id], ctx.workerId, ctx.leaseMs)).has(site.id)) throw new LeaseLost(site.id)

  const children = await prisma.datasource.findMany({ where: { groupId: site.id }, select: { id: true, config: true } })
  const urlOf = (c: { config: unknown }) => configText((c.config ?? {}) as Record<string, unknown>, 'source_url') ?? ''
  const known = new Map(children.map(c => [urlOf(c), c.id]))
  const wanted = new Set(urls)
  const gone = children.filter(c => !wanted.has(urlOf(c))).map(c => c.id)
  if (gone.length > 0) await prisma.datasource.deleteMany({ where: { id: { in: gone }, groupId: site.id } })
  const again = urls.filter(u => known.has(u)).map(u => known.get(u)!)
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
