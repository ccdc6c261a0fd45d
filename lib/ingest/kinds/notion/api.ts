import { config } from '@/lib/config'
import { IngestError, permanentError, transientError } from '../../errors'
import { PageGone } from '../../web/fetcher'
import { requestOnce } from '../../web/request'

// Notion's public API (https://developers.notion.com/reference), as the notion kinds and connections use it: every
// request goes through the crawler's guarded request (lib/ingest/web/request.ts) to NOTION_API_URL, at most
// NOTION_REQUESTS_PER_SECOND per connection in this process (Notion allows an average of 3), a 429 waits its
// Retry-After. The token is sent in the Authorization header only: no error message or log line ever holds it.

export const NOTION_VERSION = '2022-06-28'
const MAX_ATTEMPTS = 5
const MAX_BYTES = 5 * 1024 * 1024

export interface NotionCall {
  /** The integration's token. */
  token: string
  /** Requests sharing a key share one rate (a connection's id). */
  limiterKey: string
  signal?: AbortSignal
}

/** What a refused call means for the object asked for. */
export class NotionRefused extends IngestError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message, { permanent: true })
    this.name = 'NotionRefused'
  }
}

const nextSlot = new Map<string, number>()

/** Waits for the next free slot of `key`'s rate: requests are spaced 1/rate seconds apart. */
async function takeSlot(key: string, signal?: AbortSignal): Promise<void> {
  const spacing = 1000 / config().NOTION_REQUESTS_PER_SECOND
  const now = Date.now()
  const slot = Math.max(now, nextSlot.get(key) ?? 0)
  nextSlot.set(key, slot + spacing)
  if (slot > now) await sleep(slot - now, signal)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Seconds to wait after a 429: its Retry-After (capped at a minute), else one second. */
function retryAfterMs(headers: Record<string, string | string[] | undefined> | undefined): number {
  const seconds = Number(headers?.['retry-after'])
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 60) * 1000 : 1000
}

/** The failure of a non-2xx answer, in words a user can act on. */
function refusal(status: number, what: string): IngestError {
  if (status === 401) return new NotionRefused(401, 'Notion refused the connection’s token: it is wrong or was revoked; update the connection')
  if (status === 403 || status === 404) {
    return new NotionRefused(status, `Notion cannot find ${what}, or it is not shared with the integration: share the page with the integration (⋯ → Connections) and synchronise again`)
  }
  if (status >= 500) return transientError(`Notion answered ${status} for ${what}; retrying later`)
  return permanentError(`Notion answered ${status} for ${what}`)
}

/** One call to Notion's API answering JSON; `what` names the object in errors ("the page 1a2b…"). */
export async function notionRequest<T>(call: NotionCall, method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<T> {
  const env = config()
  // the base may have a path of its own (a proxy's prefix): appended to, not replaced
  const url = new URL(env.NOTION_API_URL.replace(/\/+$/, '') + path)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  for (let attempt = 1; ; attempt++) {
    await takeSlot(call.limiterKey, call.signal)
    const response = await requestOnce(url, {
      method,
      body: payload,
      maxBytes: MAX_BYTES,
      timeoutMs: env.CRAWLER_TIMEOUT_SECONDS * 1000,
      signal: call.signal,
      headers: {
        authorization: `Bearer ${call.token}`,
        'notion-version': NOTION_VERSION,
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
      },
    })
    if (response.status === 429) {
      if (attempt >= MAX_ATTEMPTS) throw transientError(`Notion kept answering 429 (rate limited) for ${what}; retrying later`)
      await sleep(retryAfterMs(response.headers), call.signal)
      continue
    }
    if (response.status < 200 || response.status >= 300) throw refusal(response.status, what)
    try {
      return JSON.parse(response.body.toString('utf8')) as T
    } catch {
      throw transientError(`Notion answered ${what} with something other than JSON`)
    }
  }
}

/** A page the group listed is no longer there (deleted, in the trash, unshared): gone, pruned as a site's missing page. */
export function notionGone(what: string): PageGone {
  return new PageGone(`${what} no longer exists in Notion, or is no longer shared with the integration`)
}

/** The error of a call about `what`, a 404 being its absence. */
export function goneOr(error: unknown, what: string): unknown {
  return error instanceof NotionRefused && error.status === 404 ? notionGone(what) : error
}

/** The name of the integration a token belongs to (GET /v1/users/me): how a connection's token is checked when saved. */
export async function notionIntegrationName(token: string, signal?: AbortSignal): Promise<string> {
  const me = await notionRequest<{ name?: string | null }>({ token, limiterKey: 'token-check', signal }, 'GET', '/v1/users/me', 'the integration')
  return me.name ?? ''
}
