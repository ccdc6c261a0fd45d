import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'

// The fetch of the model, embeddings and reranker calls: a request or two on every question (issue 28). Node's fetch
// (undici's implementation of the standard: a Request object, the body as a web stream, a fetch controller) and
// Next's wrapper around it in route handlers (its data cache's checks and trace span on each call) cost ~0.5–1 ms of
// CPU a call, about 5 % of a question's; node:http with kept-alive connections gives the same Response for a
// fraction. Anything this does not handle the same way is handed to Node's own fetch: a body that is not a string,
// a redirect (followed there), a scheme other than http(s).

type Fetch = typeof globalThis.fetch

const keepAlive = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) } as const
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** Node's own fetch, not the wrapper Next installs in its server. */
function nodeFetch(): Fetch {
  const current = globalThis.fetch as Fetch & { _nextOriginalFetch?: Fetch }
  return current._nextOriginalFetch ?? current
}

/** What fetch rejects with when the request could not be sent or answered (as undici: a TypeError with the cause). */
const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause })

const abortReason = (signal: AbortSignal) => signal.reason ?? new DOMException('This operation was aborted', 'AbortError')

function requestHeaders(init: HeadersInit | undefined, body: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {}
  new Headers(init).forEach((value, name) => void (headers[name] = value))
  headers['accept'] ??= '*/*'
  headers['accept-encoding'] ??= 'gzip, deflate, br'
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body))
  return headers
}

/** The response's body as fetch gives it: decoded from its content encoding. */
function bodyOf(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null
  if (!decoder) return res
  res.on('error', error => decoder.destroy(error))
  return res.pipe(decoder)
}

/**
 * A Node body as the web stream a Response reads: each chunk as it comes, the socket paused while 16 chunks wait
 * unread. Lighter than Readable.toWeb, and each piece of a streamed answer goes through it.
 */
function webBody(body: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // a stream its reader cancelled refuses more: what the socket still says then is dropped, not thrown
        const safely = (step: () => void) => {
          try {
            step()
          } catch {}
        }
        body.on('data', (chunk: Buffer) =>
          safely(() => {
            controller.enqueue(chunk)
            if ((controller.desiredSize ?? 1) <= 0) body.pause()
          }),
        )
        body.once('end', () => safely(() => controller.close()))
        body.once('error', error => safely(() => controller.error(error)))
      },
      pull: () => void body.resume(),
      cancel: reason => void body.destroy(reason instanceof Error ? reason : undefined),
    },
    new CountQueuingStrategy({ highWaterMark: 16 }),
  )
}

/** An outbound call's answer before it is a Response: what fetch would give, the body still a Node stream. */
export interface OutboundAnswer {
  status: number
  statusText: string
  headers: Headers
  /** decoded from its content encoding; empty for a status without a body */
  body: Readable
}

function answerOf(res: http.IncomingMessage): OutboundAnswer {
  const headers = new Headers()
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1])
  const status = res.statusCode ?? 502
  if (NULL_BODY_STATUSES.has(status)) {
    res.resume()
    return { status, statusText: res.statusMessage ?? '', headers, body: Readable.from([]) }
  }
  // the content encoding is undone here, as fetch does; its length no longer applies
  const body = bodyOf(res)
  if (body !== res) headers.delete('content-length')
  return { status, statusText: res.statusMessage ?? '', headers, body }
}

export interface OutboundRequest {
  method: string
  headers?: HeadersInit
  body?: string
  signal?: AbortSignal | null
}

/**
 * One request over kept-alive node:http, answered as fetch would be (rejected with fetch's TypeError when it could
 * not be sent, with the signal's reason when aborted) but without following a redirect: a 3xx is the answer.
 */
export function outboundRequest(url: URL, init: OutboundRequest): Promise<OutboundAnswer> {
  const { signal, body } = init
  if (signal?.aborted) return Promise.reject(abortReason(signal))
  const agent = keepAlive[url.protocol as keyof typeof keepAlive]
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: init.method.toUpperCase(), headers: requestHeaders(init.headers, body), agent })
    const onAbort = () => request.destroy(abortReason(signal!))
    signal?.addEventListener('abort', onAbort, { once: true })
    request.on('error', error => {
      signal?.removeEventListener('abort', onAbort)
      reject(signal?.aborted ? abortReason(signal) : fetchFailed(error))
    })
    request.on('response', res => {
      signal?.removeEventListener('abort', onAbort)
      if (signal) {
        // an abort after the headers ends the body with the reason, as fetch does
        const stop = () => res.destroy(abortReason(signal))
        signal.addEventListener('abort', stop, { once: true })
        res.on('close', () => signal.removeEventListener('abort', stop))
      }
      resolve(answerOf(res))
    })
    request.end(body)
  })
}

/** An answer read whole, as the Response fetch would give (an error's body, which an SDK's error handler reads). */
export async function wholeResponse(answer: OutboundAnswer): Promise<Response> {
  const chunks: Buffer[] = []
  for await (const chunk of answer.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  const nullBody = NULL_BODY_STATUSES.has(answer.status)
  return new Response(nullBody ? null : Buffer.concat(chunks), { status: answer.status, statusText: answer.statusText, headers: answer.headers })
}

/** A redirect fetch would follow. */
export const isRedirect = (answer: OutboundAnswer) => REDIRECT_STATUSES.has(answer.status) && answer.headers.has('location')

/** A fetch for outbound API calls (same contract as fetch for what they send: a string body or none). */
export const outboundFetch: Fetch = async (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  const body = init.body ?? undefined
  if (input instanceof Request || !(url.protocol in keepAlive) || (body !== undefined && typeof body !== 'string') || (init.redirect && init.redirect !== 'follow')) {
    return nodeFetch()(input, init)
  }
  const answer = await outboundRequest(url, { method: init.method ?? 'GET', headers: init.headers, body, signal: init.signal })
  if (isRedirect(answer)) {
    // rare for an API: fetch's own redirect rules (methods, bodies, limits) apply
    answer.body.resume()
    return nodeFetch()(input, init)
  }
  const nullBody = NULL_BODY_STATUSES.has(answer.status)
  return new Response(nullBody ? null : webBody(answer.body), { status: answer.status, statusText: answer.statusText, headers: answer.headers })
}
