import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { LeaseLost, permanentError } from '../errors'
import { renewLease, settleJob } from '../lease'
import type { JobContext, JobOutcome } from '../sync-document'
import { discoverPages, type SiteConfig } from './discover'
import { refreshSiteStatus } from './site-status'

/**
 * Synchronises a web_site: discovers its pages, then makes its children match them, one queued `web_page` per URL
 * (groupId = the site): new URLs get a child, known ones are queued again (their content hash makes an unchanged
 * page cheap), pages no longer found are removed with their chunks. The site stores no chunks itself; its status
 * becomes the aggregate of its children's (lib/ingest/web/site-status.ts).
 */
export async function syncWebSite(site: Datasource, ctx: JobContext): Promise<JobOutcome> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId: site.organizationId }, select: { maxWebsitePages: true } })
  const limit = limits?.maxWebsitePages ?? config().LIMIT_WEBSITE_PAGES
  const { urls } = await discoverPages((site.config ?? {}) as SiteConfig, { limit, signal: ctx.signal })
  if (urls.length === 0) throw permanentError('No pages were found: no sitemap lists any page of this site, and its start page links to none')
  ctx.signal.throwIfAborted()
  if (!(await renewLease(site.id, ctx.workerId, ctx.leaseMs))) throw new LeaseLost(site.id)

  const children = await prisma.datasource.findMany({ where: { groupId: site.id }, select: { id: true, config: true } })
  const known = new Map(children.map(c => [(c.config as { source_url?: string } | null)?.source_url ?? '', c.id]))
  const wanted = new Set(urls)
  const gone = children.filter(c => !wanted.has((c.config as { source_url?: string } | null)?.source_url ?? '')).map(c => c.id)
  const queued = { status: 'pending' as const, nextRunAt: new Date(), leaseOwner: null, leaseExpiresAt: null, attempts: 0, errorMessage: null }
  if (gone.length > 0) await prisma.datasource.deleteMany({ where: { id: { in: gone }, groupId: site.id } })
  const again = urls.filter(u => known.has(u)).map(u => known.get(u)!)
  if (again.length > 0) await prisma.datasource.updateMany({ where: { id: { in: again }, groupId: site.id }, data: { ...queued, customId: site.customId } })
  const fresh = urls.filter(u => !known.has(u))
  if (fresh.length > 0) {
    await prisma.datasource.createMany({
      data: fresh.map(url => ({
        organizationId: site.organizationId,
        datastoreId: site.datastoreId,
        groupId: site.id,
        type: 'web_page' as const,
        name: url,
        config: { source_url: url },
        customId: site.customId,
        ...queued,
      })),
    })
  }
  // the site waits for its pages: `running` without a lease, until the last page settles it
  if (!(await settleJob(site.id, ctx.workerId, `status = 'running', "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL`))) {
    throw new LeaseLost(site.id)
  }
  const status = await refreshSiteStatus(site.id)
  return { status: status ?? 'running', chunks: 0 }
}
