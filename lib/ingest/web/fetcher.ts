import dns from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import zlib from 'node:zlib'
import { config } from '@/lib/config'
import { IngestError, messageOf, permanentError, transientError } from '../errors'
import { megabytes } from '../limits'
import { isPublicAddress, privateAddressesAllowed } from './address-policy'
import { withHostSlot } from './host-slots'

export const USER_AGENT = 'AgentDatastoreBot/1.0 (+self-hosted agent & datastore service)'
/** The token robots.txt groups are matched against. */
export const ROBOTS_AGENT = 'AgentDatastoreBot'

export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const
export const XML_TYPES = ['text/xml', 'application/xml'] as const
export const TEXT_TYPES = ['text/plain'] as const
const GZIP_TYPES = ['application/gzip', 'application/x-gzip']
const MAX_REDIRECTS = 5

/** A URL the fetcher refuses to fetch (scheme, or an address outside the public internet). Never retried. */
export class RefusedUrl extends IngestError {
  constructor(message: string) {
    super(message, { permanent: true })
    this.name = 'RefusedUrl'
  }
}

export interface FetchOptions {
  /** Content types accepted (without parameters); others are refused. */
  accept: readonly string[]
  signal?: AbortSignal
  /** Default CRAWLER_MAX_PAGE_MB. */
  maxBytes?: number
  /** For each request (connection and whole response), default CRAWLER_TIMEOUT_SECONDS. */
  timeoutMs?: number
}

export interface FetchedResource {
  /** The URL finally answered, after redirects. */
  url: string
  contentType: string
  charset: string | null
  body: Buffer
}

/**
 * GET a public http(s) URL, as the security boundary of DESIGN.md §5: only http and https; the host's DNS
 * addresses must all be public (unless CRAWLER_ALLOW_PRIVATE_HOSTS=1) and the connection goes to the address that
 * was checked, so a second DNS answer cannot swap it (DNS rebinding); redirects are followed by hand, at most 5,
 * each hop checked again; every request has a timeout; the body is cut off beyond the size cap (also once
 * decompressed); only the accepted content types pass. Refusals are permanent errors, unreachable servers transient.
 */
export async function safeFetch(rawUrl: string, options: FetchOptions): Promise<FetchedResource> {
  const env = config()
  const maxBytes = options.maxBytes ?? env.CRAWLER_MAX_PAGE_MB * 1024 * 1024
  const timeoutMs = options.timeoutMs ?? env.CRAWLER_TIMEOUT_SECONDS * 1000
  let url = checkedUrl(rawUrl)
  const visited = new Set<string>()
  for (let redirects = 0; ; redirects++) {
    if (visited.has(url.href)) throw permanentError(`The page redirects in a loop (back to ${url.href})`)
    visited.add(url.href)
    const response = await withHostSlot(url.hostname, () => requestOnce(url, { maxBytes, timeoutMs, signal: options.signal }))
    if (response.location !== undefined) {
      if (redirects >= MAX_REDIRECTS) throw permanentError(`The page redirects more than ${MAX_REDIRECTS} times (last to ${response.location})`)
      if (!response.location) throw permanentError(`${url.href} answered a redirect without a Location`)
      url = checkedUrl(new URL(response.location, url).href)
      continue
    }
    const { status } = response
    if (status === 404 || status === 410) throw permanentError(`${url.href} answered ${status}: the page does not exist`)
    if (status === 429 || status >= 500) throw transientError(`${url.href} answered ${status}; it will be tried again`)
    if (status >= 400) throw permanentError(`${url.href} answered ${status}`)
    let body = response.body
    let type = response.contentType || options.accept[0]
    if (GZIP_TYPES.includes(type) && options.accept.some(t => (XML_TYPES as readonly string[]).includes(t))) {
      body = inflate(body, 'gzip', maxBytes)
      type = 'application/xml'
    }
    if (!options.accept.includes(type)) {
      throw permanentError(`${url.href} is of type ${type}; only ${options.accept.join(', ')} can be read`)
    }
    return { url: url.href, contentType: type, charset: response.charset, body }
  }
}

/** Parses a URL and refuses any scheme but http(s), and URLs carrying credentials. */
export function checkedUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new RefusedUrl(`${JSON.stringify(raw)} is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RefusedUrl(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: (${url.href})`)
  }
  if (url.username || url.password) throw new RefusedUrl(`URLs with credentials are not fetched (${url.origin})`)
  url.hash = ''
  return url
}

interface RawResponse {
  status: number
  /** Set (possibly empty) when the response is a redirect. */
  location?: string
  contentType: string
  charset: string | null
  body: Buffer
}

/** The host's address, checked: every address DNS gives must be public, unless private ones are allowed. */
async function vettedAddress(hostname: string): Promise<{ address: string; family: number }> {
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
  if (!privateAddressesAllowed(host)) {
    const refused = addresses.find(a => !isPublicAddress(a.address))
    if (refused) {
      throw new RefusedUrl(
        `${host} is at ${refused.address}, a private, loopback or link-local address: refused ` +
          `(set CRAWLER_ALLOW_PRIVATE_HOSTS=1 to allow fetching from private networks)`,
      )
    }
  }
  return addresses.find(a => a.family === 4) ?? addresses[0]
}

async function requestOnce(url: URL, { maxBytes, timeoutMs, signal }: { maxBytes: number; timeoutMs: number; signal?: AbortSignal }): Promise<RawResponse> {
  signal?.throwIfAborted()
  const target = await vettedAddress(url.hostname)
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
        method: 'GET',
        agent: false,
        signal: combined,
        timeout: timeoutMs,
        headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.1', 'accept-encoding': 'gzip, deflate, br' },
        // connect to the address that was checked, never to a second DNS answer
        lookup: ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (opts?.all) callback(null, [target])
          else callback(null, target.address, target.family)
        }) as unknown as net.LookupFunction,
      },
      response => readResponse(url, response, request, maxBytes, { resolve, reject, fail }),
    )
    request.on('timeout', () => request.destroy(new Error('socket timeout')))
    request.on('error', fail)
    request.end()
  })
}

interface Settle {
  resolve: (value: RawResponse) => void
  reject: (error: unknown) => void
  fail: (error: unknown) => void
}

/** The response's status and headers; its body, decompressed, unless it is a redirect, an error or too large. */
function readResponse(url: URL, response: http.IncomingMessage, request: http.ClientRequest, maxBytes: number, { resolve, reject, fail }: Settle): void {
  const status = response.statusCode ?? 0
  const [type, ...params] = String(response.headers['content-type'] ?? '').split(';')
  const contentType = type.trim().toLowerCase()
  const charset = /charset="?([^";\s]+)/i.exec(params.join(';'))?.[1] ?? null
  // a redirect's or an error's body is never read: close the connection rather than drain it (a hostile
  // server can send an endless one, which resume() would keep downloading after the job moved on)
  if ([301, 302, 303, 307, 308].includes(status)) {
    response.destroy()
    return resolve({ status, location: String(response.headers.location ?? ''), contentType, charset, body: Buffer.alloc(0) })
  }
  if (status >= 400) {
    response.destroy()
    return resolve({ status, contentType, charset, body: Buffer.alloc(0) })
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
  stream.on('end', () => resolve({ status, contentType, charset, body: Buffer.concat(chunks) }))
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

function inflate(body: Buffer, kind: 'gzip', maxBytes: number): Buffer {
  try {
    return zlib.gunzipSync(body, { maxOutputLength: maxBytes })
  } catch (error) {
    throw permanentError(`A compressed sitemap could not be read (${kind}, at most ${megabytes(maxBytes)}): ${messageOf(error)}`)
  }
}

function networkError(url: URL, error: unknown): IngestError {
  const code = (error as NodeJS.ErrnoException)?.code ?? ''
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) {
    return permanentError(`${url.origin} has an invalid TLS certificate (${code})`)
  }
  if (code === 'ECONNREFUSED') return transientError(`${url.origin} refused the connection`)
  return transientError(`${url.href} could not be fetched: ${messageOf(error)}${code ? ` (${code})` : ''}`)
}
