import { permanentError } from '../errors'
import { crawlSite } from './crawl'
import { checkedUrl } from './fetcher'
import { loadRobots } from './robots'
import { rulesFilter, type CrawlRules } from './rules'
import { readSitemaps } from './sitemap'

export interface SiteConfig {
  sitemap?: unknown
  source_url?: unknown
}

export interface DiscoveredPages {
  urls: string[]
  /** How they were found, for the logs. */
  via: 'sitemap' | 'robots.txt sitemaps' | '/sitemap.xml' | 'crawl'
  /** The <lastmod> of the pages whose sitemap gives one. */
  lastmod: Map<string, Date>
}

/**
 * The pages of a web_site, at most `limit`: from `config.sitemap` when given; else, from `config.source_url`, the
 * sitemaps its robots.txt lists, else its /sitemap.xml, else a same-origin crawl of its links. Only pages of the
 * site's host that robots.txt allows are kept.
 */
export async function discoverPages(config: SiteConfig, options: { limit: number; signal?: AbortSignal; rules?: CrawlRules }): Promise<DiscoveredPages> {
  const given = typeof config.sitemap === 'string' && config.sitemap ? config.sitemap : typeof config.source_url === 'string' ? config.source_url : ''
  if (!given) throw permanentError('This web site has neither a sitemap nor a source_url in its config')
  const start = checkedUrl(given)
  const robots = await loadRobots(start.origin, options.signal)
  const rules = rulesFilter(options.rules ?? {})
  const keep = (url: string) => sameHost(url, start) && robots.isAllowed(url) && rules(url)
  const lastmod = new Map<string, Date>()
  const read = (sitemaps: string[], strict = false) => readSitemaps(sitemaps, { limit: options.limit, keep, signal: options.signal, strict, lastmod })

  if (config.sitemap === given) return { urls: await read([start.href], true), via: 'sitemap', lastmod }
  if (robots.sitemaps.length > 0) {
    const urls = await read(robots.sitemaps)
    if (urls.length > 0) return { urls, via: 'robots.txt sitemaps', lastmod }
  }
  const urls = await read([`${start.origin}/sitemap.xml`])
  if (urls.length > 0) return { urls, via: '/sitemap.xml', lastmod }
  if (!robots.isAllowed(start.href)) throw permanentError(`The site's robots.txt does not allow crawling ${start.href}`)
  const crawl = { limit: options.limit, allowed: (u: string) => robots.isAllowed(u) && rules(u), keep: rules, maxDepth: options.rules?.maxDepth, signal: options.signal }
  return { urls: await crawlSite(start.href, crawl), via: 'crawl', lastmod }
}

// A sitemap lists pages of its own host (sitemaps.org); http and https of one host are the same site
function sameHost(url: string, site: URL): boolean {
  try {
    return new URL(url).hostname === site.hostname
  } catch {
    return false
  }
}
