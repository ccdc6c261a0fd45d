import type { Route } from 'playwright-core'
import { config } from '@/lib/config'
import { messageOf } from '../../errors'
import { checkedUrl } from '../fetcher'
import { withHostSlot } from '../host-slots'
import { requestOnce } from '../request'

// What a page's text never depends on: not fetched at all
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font', 'stylesheet', 'texttrack', 'manifest', 'beacon', 'ping', 'csp_report'])
// Headers of our answer the browser must not apply again: the body is already decompressed and whole
const HOP_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie'])

/**
 * Every request a rendered page makes is answered by the crawler's own fetcher (lib/ingest/web/request.ts), never
 * by the browser's network: the same checks as any crawl (http(s) only, every DNS address public unless
 * CRAWLER_ALLOW_PRIVATE_HOSTS=1, the connection to the checked address, timeouts, the size cap). A refused request
 * fails in the page as a network error would, and is remembered in `refused`.
 */
export function guardRequests(refused: string[], signal: AbortSignal) {
  return async (route: Route): Promise<void> => {
    const request = route.request()
    if (SKIPPED_RESOURCES.has(request.resourceType())) return route.abort('blockedbyclient')
    const method = request.method()
    if (method !== 'GET' && method !== 'POST') return route.abort('blockedbyclient')
    const env = config()
    try {
      const url = checkedUrl(request.url())
      const headers: Record<string, string> = {}
      for (const name of ['accept', 'content-type']) {
        const value = request.headers()[name]
        if (value) headers[name] = value
      }
      const response = await withHostSlot(url.hostname, () =>
        requestOnce(url, { method, headers, body: request.postData() ?? undefined, maxBytes: env.CRAWLER_MAX_PAGE_MB * 1024 * 1024, timeoutMs: env.CRAWLER_TIMEOUT_SECONDS * 1000, signal }),
      )
      await route.fulfill({ status: response.status, headers: answerHeaders(response.headers, response.location), body: response.body })
    } catch (error) {
      if ((error as Error)?.name === 'RefusedUrl') refused.push(`${request.url()}: ${messageOf(error)}`)
      await route.abort(signal.aborted ? 'aborted' : 'blockedbyclient').catch(() => {})
    }
  }
}

function answerHeaders(headers: Record<string, string | string[] | undefined> = {}, location?: string): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue
    kept[name] = Array.isArray(value) ? value.join(', ') : value
  }
  if (location !== undefined) kept.location = location
  return kept
}
