import { config } from '@/lib/config'
import type { WebhookSender } from '@/lib/webhooks'
import { IngestError, messageOf } from '../errors'
import { checkedUrl } from './fetcher'
import { requestOnce } from './request'

/**
 * Sends a webhook delivery through the crawler's guarded request (lib/ingest/web/request.ts): http(s) only, the
 * receiver's addresses must be public unless WEBHOOK_ALLOW_PRIVATE_HOSTS=1 (or CRAWLER_ALLOW_PRIVATE_HOSTS=1), the
 * connection pinned to the checked address, WEBHOOK_TIMEOUT_SECONDS at most. Redirects are not followed (a
 * receiver answers where it is registered). A 2xx is a delivery; a refused address fails for good.
 */
export const sendWebhook: WebhookSender = async (rawUrl, { body, headers, signal }) => {
  const env = config()
  try {
    const url = checkedUrl(rawUrl)
    const response = await requestOnce(url, {
      method: 'POST',
      body,
      headers: { ...headers, accept: '*/*', 'accept-encoding': 'identity', 'content-length': String(Buffer.byteLength(body)) },
      maxBytes: 64 * 1024,
      timeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000,
      signal,
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
      discardBody: true,
    })
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status }
    const hint = response.location !== undefined ? ` (a redirect to ${response.location || 'nowhere'}: register the final URL)` : ''
    return { ok: false, status: response.status, error: `The receiver answered ${response.status}${hint}`, permanent: false }
  } catch (error) {
    if (signal?.aborted) throw error
    const permanent = error instanceof IngestError && error.name === 'RefusedUrl'
    const message = messageOf(error)
    return { ok: false, status: null, error: message, permanent }
  }
}
