import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import type { FetchedResource } from '../fetcher'
import { readHtml, type ReadPage } from '../html'
import { renderPage } from './browser'
import { renderSetting } from './chromium'

export { closeRenderer } from './browser'
export { chromiumPath, renderSetting } from './chromium'

/** Fewer readable characters than this, and a page with an app's mount point and scripts is taken for a shell. */
const NEARLY_EMPTY = 200
// A script that runs (not data such as JSON-LD, nor a template)
const RUNNING_SCRIPT = /<script\b(?![^>]*\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/(?:template|x-template|html))\b)[^>]*>/i
// Where single-page apps mount (React, Vue, Next, Nuxt, Gatsby, Svelte, Angular's <app-root>), or a <noscript> plea
const MOUNT_POINT = /<(?:div|main|section)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|main-app|application)["'\s>]|<app-root\b|<noscript\b/i

/**
 * Whether a page's HTML is a shell its scripts fill: nearly no readable text, a script to run, and an app's mount
 * point (or a <noscript> fallback). A short static page with a tracking script is not one: it is read as served.
 */
export function looksLikeAppShell(body: Buffer, read: ReadPage): boolean {
  // a prefix is enough, and exact: readHtml's text has no run of whitespace longer than two characters, so 4 × 200 of
  // them hold at least 200 once runs are collapsed (collapsing the text of a 5 MB page took a quarter of a second)
  if (read.text.slice(0, 4 * NEARLY_EMPTY).replace(/\s+/g, ' ').length >= NEARLY_EMPTY) return false
  const html = body.toString('latin1')
  return RUNNING_SCRIPT.test(html) && MOUNT_POINT.test(html)
}

/**
 * A fetched HTML page read for its title, text and links: as it came, or, when it needs JavaScript (an app shell
 * under CRAWLER_RENDER=auto, every page under always), as headless Chromium renders it, every request it makes
 * passing the fetcher's address check.
 */
export async function readPage(page: FetchedResource, signal?: AbortSignal): Promise<ReadPage & { url: string; rendered: boolean }> {
  const read = await readHtml(page.body, page.url, page.charset)
  if (!renderSetting().render) return { ...read, url: page.url, rendered: false }
  if (config().CRAWLER_RENDER !== 'always' && !looksLikeAppShell(page.body, read)) return { ...read, url: page.url, rendered: false }
  const rendered = await renderPage(page.url, signal)
  if (rendered.refused.length > 0) logger.warn('requests of a rendered page refused', { url: page.url, refused: rendered.refused.slice(0, 10) })
  return { ...(await readHtml(Buffer.from(rendered.html, 'utf8'), rendered.url, 'utf-8')), url: rendered.url, rendered: true }
}
