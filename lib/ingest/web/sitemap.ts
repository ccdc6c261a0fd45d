import * as cheerio from 'cheerio'
import { IngestError } from '../errors'
import { safeFetch, TEXT_TYPES, XML_TYPES } from './fetcher'
import { resolve } from './html'

/** Sitemap files read for one site at most, and how deep sitemap indexes may nest. */
const MAX_SITEMAPS = 200
const MAX_DEPTH = 5

export interface SitemapOptions {
  /** Pages wanted at most. */
  limit: number
  /** Which page URLs to keep (same site, allowed by robots.txt). */
  keep: (url: string) => boolean
  signal?: AbortSignal
  /** The first sitemap must be readable (the user gave it): its failure is the site's error. */
  strict?: boolean
  /** Filled with each page's <lastmod>, when its sitemap gives one. */
  lastmod?: Map<string, Date>
}

/**
 * Page URLs from sitemaps (urlset) and sitemap indexes (nested, at most MAX_DEPTH deep and MAX_SITEMAPS files;
 * each file read once, so a sitemap listing itself ends), in document order, de-duplicated, up to `limit`.
 * Plain-text sitemaps (one URL a line) and gzipped ones are read too.
 */
export async function readSitemaps(start: string[], options: SitemapOptions): Promise<string[]> {
  const pages = new Set<string>()
  const seen = new Set<string>()
  const queue = start.map(url => ({ url, depth: 0 }))
  let first = true
  while (queue.length > 0 && pages.size < options.limit && seen.size < MAX_SITEMAPS) {
    const { url, depth } = queue.shift()!
    if (seen.has(url)) continue
    seen.add(url)
    const strict = first && options.strict
    first = false
    let entries: { sitemaps: string[]; pages: string[]; lastmod: Map<string, Date> }
    try {
      entries = await readSitemap(url, options.signal)
    } catch (error) {
      // a nested sitemap that fails (or is refused) is skipped; the one the user gave failing fails the site
      if (strict || options.signal?.aborted || !(error instanceof IngestError)) throw error
      continue
    }
    if (depth < MAX_DEPTH) for (const nested of entries.sitemaps) queue.push({ url: nested, depth: depth + 1 })
    for (const page of entries.pages) {
      if (pages.size >= options.limit) break
      if (!options.keep(page)) continue
      pages.add(page)
      const modified = entries.lastmod.get(page)
      if (modified) options.lastmod?.set(page, modified)
    }
  }
  return [...pages]
}

async function readSitemap(url: string, signal?: AbortSignal): Promise<{ sitemaps: string[]; pages: string[]; lastmod: Map<string, Date> }> {
  const res = await safeFetch(url, { accept: [...XML_TYPES, ...TEXT_TYPES], signal })
  if (res.contentType === 'text/plain') {
    const lines = res.body.toString('utf8').split(/\r?\n/).map(l => l.trim())
    return { sitemaps: [], pages: lines.map(l => resolve(l, res.url)).filter((u): u is string => u !== null && /^https?:/.test(u)), lastmod: new Map() }
  }
  const $ = cheerio.loadBuffer(res.body, { xml: true, encoding: { transportLayerEncodingLabel: res.charset ?? undefined, defaultEncoding: 'utf-8' } })
  const locs = (selector: string) =>
    $(selector)
      .map((_, el) => resolve($(el).text(), res.url))
      .get()
      .filter((u): u is string => u !== null)
  const lastmod = new Map<string, Date>()
  $('urlset > url').each((_, el) => {
    const page = resolve($(el).children('loc').first().text(), res.url)
    const modified = new Date($(el).children('lastmod').first().text().trim())
    if (page && !Number.isNaN(modified.getTime())) lastmod.set(page, modified)
  })
  return { sitemaps: locs('sitemapindex > sitemap > loc'), pages: locs('urlset > url > loc'), lastmod }
}
