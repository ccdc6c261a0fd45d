import type { ServerResponse } from 'node:http'
import { once } from 'node:events'
import zlib from 'node:zlib'
import type { EventQueue } from './event-queue'
import { eventQueueOf } from './sse'

// A route handler's Web response written to Node's (lib/api/direct-dispatch.ts): status, headers, then the body as
// it comes (an event stream piece by piece, with backpressure), the body cancelled when the client goes away. Text
// bodies of 1 KB and more are gzipped for a client that accepts it, as Next's server did; an event stream (and
// anything marked no-transform) never is, so that its pieces are not held back.

const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|[\w.+-]+\+json|javascript|xml|x-ndjson))/i
const SMALL = 1024
const WRITE_INTERVAL_MS = 50

export interface SendOptions {
  extraHeaders: Record<string, string>
  acceptEncoding: string | null
  /** aborts when the client has gone */
  gone: AbortSignal
}

function acceptsGzip(acceptEncoding: string | null): boolean {
  const gzip = /(?:^|,)\s*gzip\s*(?:;\s*q=([\d.]+))?/i.exec(acceptEncoding ?? '')
  return !!gzip && (gzip[1] === undefined || Number(gzip[1]) > 0)
}

function compressible(headers: Headers, acceptEncoding: string | null): boolean {
  return (
    acceptsGzip(acceptEncoding) &&
    COMPRESSIBLE.test(headers.get('content-type') ?? '') &&
    !headers.has('content-encoding') &&
    !/\bno-transform\b/i.test(headers.get('cache-control') ?? '')
  )
}

function writeHead(response: Response, res: ServerResponse, extraHeaders: Record<string, string>): void {
  res.statusCode = response.status
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value)
  const cookies = response.headers.getSetCookie()
  if (cookies.length) res.setHeader('set-cookie', cookies)
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value)
}

/** Writes `chunk`, waiting while the socket's buffer is full (or until the client has gone). */
async function write(target: NodeJS.WritableStream, chunk: Uint8Array, gone: AbortSignal): Promise<void> {
  if (target.write(chunk) || gone.aborted) return
  await once(target, 'drain', { signal: gone }).catch(() => {})
}

async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, target: NodeJS.WritableStream, gone: AbortSignal): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read()
    if (done || gone.aborted) return
    await write(target, value, gone)
  }
}

/** An answer's events, read from their queue rather than through the body's stream (lib/http/sse.ts). */
async function sendEvents(queue: EventQueue, res: ServerResponse, gone: AbortSignal): Promise<void> {
  const cancel = () => queue.cancel()
  gone.addEventListener('abort', cancel, { once: true })
  try {
    // the headers go with the first event, as Next sent them; each write is a system call (and on a network, a
    // packet), so what is already waiting goes in one, the last with the stream's end, and after a write the pieces
    // of the next WRITE_INTERVAL_MS wait for the next one: a model streaming a token every 20 ms costs a write every
    // 50 ms, none of them later than that
    for (;;) {
      const chunk = queue.take() ?? (await queue.wait())
      if (!chunk || gone.aborted) break
      const waiting = [chunk]
      let next = queue.take()
      for (; next; next = queue.take()) waiting.push(next)
      const joined = waiting.length === 1 ? chunk : Buffer.concat(waiting)
      if (next === null) return void res.end(joined)
      await write(res, joined, gone)
      await queue.pause(WRITE_INTERVAL_MS)
    }
    res.end()
  } finally {
    gone.removeEventListener('abort', cancel)
  }
}

/** Sends `response` on `res`; resolves when the body is written or the client has gone. */
export async function sendBody(response: Response, res: ServerResponse, options: SendOptions): Promise<void> {
  writeHead(response, res, options.extraHeaders)
  if (!response.body) return void res.end()
  const queue = eventQueueOf(response)
  if (queue?.claim('direct')) return sendEvents(queue, res, options.gone)
  const reader = response.body.getReader()
  const cancel = () => void reader.cancel().catch(() => {})
  options.gone.addEventListener('abort', cancel, { once: true })
  try {
    if (!compressible(response.headers, options.acceptEncoding)) {
      res.flushHeaders()
      await pump(reader, res, options.gone)
      return void res.end()
    }
    res.appendHeader('vary', 'Accept-Encoding')
    const first = await reader.read()
    const second = first.done ? first : await reader.read()
    if (second.done && (first.value?.byteLength ?? 0) < SMALL) {
      res.setHeader('content-length', first.value?.byteLength ?? 0)
      return void res.end(first.value)
    }
    // a length the handler gave is the uncompressed body's
    res.removeHeader('content-length')
    res.setHeader('content-encoding', 'gzip')
    const gzip = zlib.createGzip()
    gzip.pipe(res)
    if (first.value) await write(gzip, first.value, options.gone)
    if (!second.done) {
      await write(gzip, second.value, options.gone)
      await pump(reader, gzip, options.gone)
    }
    gzip.end()
  } finally {
    options.gone.removeEventListener('abort', cancel)
  }
}
