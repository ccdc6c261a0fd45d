import { IngestError } from '../errors'
import { HTML_TYPES, safeFetch } from './fetcher'
import { readHtml } from './html'
import { readPage } from './render'

// Links to files that are not pages, not worth a request
const NOT_PAGES = /\.(?:pdf|zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|avi|mov|woff2?|ttf|eot|css|js|json|xml|rss|atom|exe|dmg|msi|apk|docx?|xlsx?|pptx?|csv)$/i

export interface CrawlOptions {
  limit: number
  /** Whether a URL may be fetched (robots.txt, the site's crawl rules). */
  allowed: (url: string) => boolean
  /** Whether a fetched page is kept (the crawl rules); the root is read for its links either way. Default: all. */
  keep?: (url: string) => boolean
  /** Links followed at most this many steps from the root (0: the root alone). Default: no limit. */
  maxDepth?: number
  signal?: AbortSignal
}

/**
 * Pages of a site found by following its links breadth-first from `root`: same origin only (a link elsewhere is
 * never fetched), fragments stripped, each URL fetched once, robots.txt obeyed. Returns the pages that answered
 * HTML, root first, at most `limit`; the root itself failing is the site's error. Concurrency per host is bounded
 * by the fetcher.
 */
export async function crawlSite(root: string, options: CrawlOptions): Promise<string[]> {
  // the root's final URL decides the origin (http://site/ often redirects to https://www.site/)
  let origin = new URL(root).origin
  const pages: string[] = []
  const queued = new Set<string>([root])
  const frontier = [root]
  const depth = new Map<string, number>([[root, 0]])
  const keep = options.keep ?? (() => true)
  const maxDepth = options.maxDepth ?? Infinity
  // failed or non-HTML answers count too, so a site of broken links ends
  let fetches = 0
  const maxFetches = options.limit * 3
  while (frontier.length > 0 && pages.length < options.limit && fetches < maxFetches) {
    const wave = frontier.splice(0, Math.min(frontier.length, options.limit - pages.length, 4))
    fetches += wave.length
    const results = await Promise.all(
      wave.map(async url => {
        try {
          const res = await safeFetch(url, { accept: HTML_TYPES, signal: options.signal })
          if (url === root) origin = new URL(res.url).origin
          return { url: res.url, depth: depth.get(url) ?? 0, links: await linksOf(res, options.signal) }
        } catch (error) {
          // a broken or refused link is skipped; the root failing fails the site
          if (url === root || options.signal?.aborted || !(error instanceof IngestError)) throw error
          return null
        }
      }),
    )
    for (const result of results) {
      if (!result || new URL(result.url).origin !== origin) continue
      if (pages.length >= options.limit) break
      if (!pages.includes(result.url) && keep(result.url)) pages.push(result.url)
      if (result.depth >= maxDepth) continue
      for (const link of result.links) {
        if (queued.has(link) || NOT_PAGES.test(new URL(link).pathname)) continue
        if (new URL(link).origin !== origin || !options.allowed(link)) continue
        queued.add(link)
        depth.set(link, result.depth + 1)
        frontier.push(link)
      }
    }
  }
  return pages
}

/** A page's links, as rendered when its scripts write them (an app's navigation); as served if rendering fails. */
async function linksOf(page: Awaited<ReturnType<typeof safeFetch>>, signal?: AbortSignal): Promise<string[]> {
  try {
    return (await readPage(page, signal)).links
  } catch (error) {
    if (signal?.aborted) throw error
    return (await readHtml(page.body, page.url, page.charset)).links
  }
}
