import dns from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { IngestError, messageOf, permanentError, transientError } from '../errors'
import { megabytes } from '../limits'
import { isPublicAddress, privateAddressesAllowed } from './address-policy'

export const USER_AGENT = 'AgentDatastoreBot/1.0 (+self-hosted agent & datastore service)'

/** A URL the fetcher refuses to fetch (scheme, or an address outside the public internet). Never retried. */
export class RefusedUrl extends IngestError {
  constructor(message: string) {
    super(message, { permanent: true })
    this.name = 'RefusedUrl'
  }
}

export interface RawResponse {
  status: number
  /** Set (possibly empty) when the response is a redirect. */
  location?: string
  contentType: string
  charset: string | null
  /** The validators of the answer, for a conditional request next time. */
  etag: string | null
  lastModified: string | null
  body: Buffer
  /** Every response header (a rendering browser is answered with them). */
  headers?: http.IncomingHttpHeaders
}

export interface RequestOptions {
  maxBytes: number
  timeoutMs: number
  signal?: AbortSignal
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Sent with the defaults (user-agent, accept…), overriding them. */
  headers?: Record<string, string>
  body?: string
  /** Private addresses allowed for this request (webhooks with WEBHOOK_ALLOW_PRIVATE_HOSTS), besides the crawler's setting. */
  allowPrivate?: boolean
  /** The status and headers only: the body is never read (a webhook receiver's answer). */
  discardBody?: boolean
}

/** The host's address, checked: every address DNS gives must be public, unless private ones are allowed. */
async function vettedAddress(hostname: string, allowPrivate = false): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '')
  let addresses: { address: string; family: number }[]
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }]
  } else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOTFOUND' || code === 'ENODATA') throw permanentError(`The host ${host} was not found (DNS)`)
      throw transientError(`The host ${host} could not be resolved: ${messageOf(error)}`)
    }
  }
  if (addresses.length === 0) throw permanentError(`The host ${host} was not found (DNS)`)
  if (!allowPrivate && !privateAddressesAllowed(host)) {
    const refused = addresses.find(a => !isPublicAddress(a.address))
    if (refused) {
      // the address DNS gave is not told (issue 22): an error a datasource or webhook shows would map the internal
      // network one name at a time; an address the caller wrote itself is only repeated
      const what = net.isIP(host) ? `${host} is` : `${host} resolves to`
      throw new RefusedUrl(
        `Not allowed: ${what} a private, loopback or link-local address, refused (set CRAWLER_ALLOW_PRIVATE_HOSTS=1, ` +
          `or WEBHOOK_ALLOW_PRIVATE_HOSTS=1 for webhooks, to allow private networks)`,
      )
    }
  }
  return addresses.find(a => a.family === 4) ?? addresses[0]
}

/** A lookup that answers the address that was checked: the connection never takes a second DNS answer. */
function pinnedLookup(target: { address: string; family: number }): net.LookupFunction {
  return ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [target])
    else callback(null, target.address, target.family)
  }) as unknown as net.LookupFunction
}

/**
 * fetch() for clients that take one (the MCP SDK's transport), under the private-address rule: the host is checked,
 * then the connection goes to the very address checked (a global fetch resolved the name again: a DNS answer that
 * changed in between, "DNS rebinding", reached a private address). Redirects are refused; the body streams.
 */
export function vettedFetch(allowPrivate: boolean): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const target = await vettedAddress(url.hostname, allowPrivate)
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
    const client = url.protocol === 'https:' ? https : http
    return new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(request.headers)
      const outgoing = client.request(url, { method: request.method, headers, signal: request.signal, agent: false, lookup: pinnedLookup(target) }, response => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400) {
          response.destroy()
          return reject(new TypeError(`${url.href} redirected: refused`))
        }
        const received = new Headers()
        for (const [name, value] of Object.entries(response.headers)) for (const v of [value ?? []].flat()) received.append(name, v)
        const stream = status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>)
        resolve(new Response(stream, { status, statusText: response.statusMessage, headers: received }))
      })
      outgoing.on('error', reject)
      outgoing.end(body)
    })
  }
}

/** One request to the checked address of `url` (redirects are the caller's), with a timeout and a size cap. */
export async function requestOnce(url: URL, options: RequestOptions): Promise<RawResponse> {
  const { timeoutMs, signal } = options
  signal?.throwIfAborted()
  const target = await vettedAddress(url.hostname, options.allowPrivate)
  const deadline = AbortSignal.timeout(timeoutMs)
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline
  const client = url.protocol === 'https:' ? https : http
  return new Promise<RawResponse>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (signal?.aborted) return reject(signal.reason)
      if (deadline.aborted) return reject(transientError(`${url.href} did not answer within ${Math.round(timeoutMs / 1000)} s`))
      reject(error instanceof IngestError ? error : networkError(url, error))
    }
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        signal: combined,
        timeout: timeoutMs,
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.1', 'accept-encoding': 'gzip, deflate, br', ...options.headers },
        lookup: pinnedLookup(target),
      },
      response => readResponse(url, response, request, options, { resolve, reject, fail }),
    )
    request.on('timeout', () => request.destroy(new Error('socket timeout')))
    request.on('error', fail)
    request.end(options.body)
  })
}

interface Settle {
  resolve: (value: RawResponse) => void
  reject: (error: unknown) => void
  fail: (error: unknown) => void
}

/** The response's status and headers; its body, decompressed, unless it is a redirect, an error, unmodified or too large. */
function readResponse(url: URL, response: http.IncomingMessage, request: http.ClientRequest, options: RequestOptions, { resolve, reject, fail }: Settle): void {
  const { maxBytes } = options
  const status = response.statusCode ?? 0
  const [type, ...params] = String(response.headers['content-type'] ?? '').split(';')
  const contentType = type.trim().toLowerCase()
  const charset = /charset="?([^";\s]+)/i.exec(params.join(';'))?.[1] ?? null
  const head = { status, contentType, charset, etag: header(response, 'etag'), lastModified: header(response, 'last-modified'), body: Buffer.alloc(0), headers: response.headers }
  // a redirect's or an error's body is never read: close the connection rather than drain it (a hostile
  // server can send an endless one, which resume() would keep downloading after the job moved on)
  if ([301, 302, 303, 307, 308].includes(status)) {
    response.destroy()
    return resolve({ ...head, location: String(response.headers.location ?? '') })
  }
  if (status >= 400 || status === 304 || options.discardBody) {
    response.destroy()
    return resolve(head)
  }
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.destroy()
    return reject(tooLarge(url, maxBytes))
  }
  const stream = decompressed(response)
  const chunks: Buffer[] = []
  let size = 0
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > maxBytes) {
      request.destroy()
      response.destroy()
      reject(tooLarge(url, maxBytes))
      return
    }
    chunks.push(chunk)
  })
  stream.on('error', fail)
  stream.on('end', () => resolve({ ...head, body: Buffer.concat(chunks) }))
}

function header(response: http.IncomingMessage, name: string): string | null {
  const value = response.headers[name]
  return typeof value === 'string' && value.length <= 512 ? value : null
}

function decompressed(response: http.IncomingMessage): NodeJS.ReadableStream {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip())
  if (encoding === 'deflate') return response.pipe(zlib.createInflate())
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress())
  return response
}

function tooLarge(url: URL, maxBytes: number): IngestError {
  return permanentError(`${url.href} is larger than ${megabytes(maxBytes)} (CRAWLER_MAX_PAGE_MB): not fetched`)
}

function networkError(url: URL, error: unknown): IngestError {
  const code = (error as NodeJS.ErrnoException)?.code ?? ''
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) {
    return permanentError(`${url.origin} has an invalid TLS certificate (${code})`)
  }
  if (code === 'ECONNREFUSED') return transientError(`${url.origin} refused the connection`)
  return transientError(`${url.href} could not be fetched: ${messageOf(error)}${code ? ` (${code})` : ''}`)
}
