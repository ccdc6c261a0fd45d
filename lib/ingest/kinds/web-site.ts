import { z } from 'zod'
import { HttpUrl } from '@/lib/domain/urls'
import { CrawlRulesSchema } from '../web/rules'
import { syncWebSite } from './site-sync'
import { configText, documentSource, type GroupKind } from './kind'
import { nameFromUrl } from './web-page'

const WebSiteConfig = z
  .object({ sitemap: HttpUrl.optional(), source_url: HttpUrl.optional(), ...CrawlRulesSchema })
  .refine(c => c.sitemap || c.source_url, 'a web_site needs config.sitemap or config.source_url')
type WebSiteConfig = z.infer<typeof WebSiteConfig>

/** The crawl rules of a site's config as stored (only those given). */
export function storedRules(config: Partial<Pick<WebSiteConfig, 'include' | 'exclude' | 'maxPages' | 'maxDepth'>>) {
  return {
    ...(config.include?.length ? { include: config.include } : {}),
    ...(config.exclude?.length ? { exclude: config.exclude } : {}),
    ...(config.maxPages !== undefined ? { maxPages: config.maxPages } : {}),
    ...(config.maxDepth !== undefined ? { maxDepth: config.maxDepth } : {}),
  }
}

/** The crawl rules alone, as PATCH /api/datasources/{id} changes them (null removes one). */
export const SiteRulesPatch = z.object({
  include: CrawlRulesSchema.include.nullable(),
  exclude: CrawlRulesSchema.exclude.nullable(),
  maxPages: CrawlRulesSchema.maxPages.nullable(),
  maxDepth: CrawlRulesSchema.maxDepth.nullable(),
}).partial()

/** A web site: its pages are found from its sitemap (or robots.txt, /sitemap.xml, a crawl) and synched as web_page children. */
export const webSiteKind: GroupKind<'web_site'> = {
  type: 'web_site',
  sync: 'group',
  refreshable: true,
  creation: {
    via: 'json',
    json: {
      configSchema: WebSiteConfig,
      // the sitemap is used first when both are given
      storedConfig: (config: WebSiteConfig) => ({
        ...(config.sitemap ? { sitemap: config.sitemap } : {}),
        ...(config.source_url ? { source_url: config.source_url } : {}),
        ...storedRules(config),
      }),
      defaultName: (config: WebSiteConfig) => nameFromUrl(config.sitemap ?? config.source_url!),
    },
  },
  publicFields: ['sitemap', 'source_url', 'include', 'exclude', 'maxPages', 'maxDepth'],
  sourceOf: ds => configText(ds.config, 'source_url') ?? documentSource(ds),
  editableConfig: {
    schema: SiteRulesPatch,
    apply: (config, patch: z.infer<typeof SiteRulesPatch>) => {
      const next = { ...config, ...patch }
      const rules = storedRules(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== null)) as WebSiteConfig)
      const { include: _i, exclude: _e, maxPages: _p, maxDepth: _d, ...rest } = next
      return { ...rest, ...rules }
    },
  },
  syncGroup: syncWebSite,
}
