import { config as settings } from '@/lib/config'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import type { Datasource } from '@/lib/generated/prisma/client'
import { permanentError } from '../errors'
import { discoverPages, type SiteConfig } from '../web/discover'
import { rulesOf } from '../web/rules'
import { matchChildren, pageLimitOf } from './group-children'
import { asObject, configText, type JobContext } from './kind'
import { pageConfig, webPageKind } from './web-page'

/**
 * Discovers the site's pages (its crawl rules applied: include and exclude patterns, maxPages under the
 * organization's page limit, maxDepth of a crawl), then makes its children match them, one queued `web_page` per
 * URL: new URLs get a child; known ones are queued again (a conditional fetch and their content hash make an
 * unchanged page cheap), except those whose sitemap <lastmod> is not after their last sync; pages no longer found are
 * removed with their chunks (lifecycle/remove.ts) and counted. The site then waits for its pages.
 */
export async function syncWebSite(site: Datasource, ctx: JobContext): Promise<DatasourceStatus | null> {
  const config = asObject(site.config)
  const rules = rulesOf(config)
  const orgLimit = await pageLimitOf(site.organizationId, settings().LIMIT_WEBSITE_PAGES)
  const limit = Math.min(rules.maxPages ?? orgLimit, orgLimit)
  const { urls, lastmod } = await discoverPages(config as SiteConfig, { limit, signal: ctx.signal, rules })
  if (urls.length === 0) throw permanentError('No pages were found: no sitemap lists any page of this site (its crawl rules applied), and its start page links to none')
  const found = urls.map(url => ({
    key: url,
    name: url,
    config: pageConfig(url),
    current: (c: { status: DatasourceStatus; lastSynch: Date | null }) =>
      c.status === 'synched' && c.lastSynch !== null && (lastmod.get(url)?.getTime() ?? Infinity) <= c.lastSynch.getTime(),
  }))
  return matchChildren(site, ctx, { type: webPageKind.type, keyOf: c => configText(c, 'source_url') ?? '' }, found)
}
