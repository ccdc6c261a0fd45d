import { permanentError } from '../errors'
import { crawlSite } from './crawl'
import { checkedUrl } from './fetcher'
import { loadRobots } from './robots'
import { readSitemaps } from './sitemap'

export interface SiteConfig {
  sitemap?: unknown
  source_url?: unknown
}

export interface DiscoveredPages {
  urls: string[]
  /** How they were found, for the logs. */
  via: 'sitemap' | 'robots.txt sitemaps' | '/sitemap.xml' | 'crawl'
}

/**
 * The pages of a web_site, at most `limit`: from `config.sitemap` when given; else, from `config.source_url`, the
 * sitemaps its robots.txt lists, else its /sitemap.xml, else a same-origin crawl of its links. Only pages of the
 * site's host that robots.txt allows are kept.
 */
export async function discoverPages(config: SiteConfig, options: { limit: number; signal?: AbortSignal }): Promise<DiscoveredPages> {
  const given = typeof config.sitemap === 'string' && config.sitemap ? config.sitemap : typeof config.source_url === 'string' ? config.source_url : ''
  if (!given) throw permanentError('This web site has neither a sitemap nor a source_url in its config')
  const start = checkedUrl(given)
  const robots = await loadRobots(start.origin, options.signal)
  const keep = (url: string) => sameHost(url, start) && robots.isAllowed(url)
  const read = (sitemaps: string[], strict = false) => readSitemaps(sitemaps, { limit: options.limit, keep, signal: options.signal, strict })

  if (config.sitemap === given) return { urls: await read([start.href], true), via: 'sitemap' }
  if (robots.sitemaps.length > 0) {
    const urls = await read(robots.sitemaps)
    if (urls.length > 0) return { urls, via: 'robots.txt sitemaps' }
  }
  const urls = await read([`${start.origin}/sitemap.xml`])
  if (urls.length > 0) return { urls, via: '/sitemap.xml' }
  if (!robots.isAllowed(start.href)) throw permanentError(`The site's robots.txt does not allow crawling ${start.href}`)
  return { urls: await crawlSite(start.href, { limit: options.limit, allowed: robots.isAllowed, signal: options.signal }), via: 'crawl' }
}

// A sitemap lists pages of its own host (sitemaps.org); http and https of one host are the same site
function sameHost(url: string, site: URL): boolean {
  try {
    return new URL(url).hostname === site.hostname
  } catch {
    return false
  }
}
