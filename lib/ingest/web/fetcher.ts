import zlib from 'node:zlib'
import { config } from '@/lib/config'
import { IngestError, messageOf, permanentError, transientError } from '../errors'
import { megabytes } from '../limits'
import { withHostSlot } from './host-slots'
import { RefusedUrl, requestOnce } from './request'

export { RefusedUrl, USER_AGENT } from './request'
/** The token robots.txt groups are matched against. */
export const ROBOTS_AGENT = 'AgentDatastoreBot'

export const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const
export const XML_TYPES = ['text/xml', 'application/xml'] as const
export const TEXT_TYPES = ['text/plain'] as const
const GZIP_TYPES = ['application/gzip', 'application/x-gzip']
const MAX_REDIRECTS = 5

/** A page that answered 404 or 410: it does not exist (any more). Permanent; a site's page gone twice is pruned. */
export class PageGone extends IngestError {
  constructor(message: string) {
    super(message, { permanent: true })
    this.name = 'PageGone'
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
  /** The validators of the copy we hold: sent as If-None-Match / If-Modified-Since; a 304 answers `notModified`. */
  validators?: HttpValidators
}

/** HTTP validators of a fetched copy (ETag, Last-Modified): sent back as If-None-Match / If-Modified-Since. */
export interface HttpValidators {
  etag: string | null
  lastModified: string | null
}

export interface FetchedResource extends HttpValidators {
  /** The URL finally answered, after redirects. */
  url: string
  contentType: string
  charset: string | null
  body: Buffer
  /** The server answered 304 to a conditional request: the copy we hold is current (no body). */
  notModified: boolean
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
  const headers = conditionalHeaders(options.validators)
  let url = checkedUrl(rawUrl)
  const visited = new Set<string>()
  for (let redirects = 0; ; redirects++) {
    if (visited.has(url.href)) throw permanentError(`The page redirects in a loop (back to ${url.href})`)
    visited.add(url.href)
    const response = await withHostSlot(url.hostname, () => requestOnce(url, { maxBytes, timeoutMs, signal: options.signal, headers }))
    if (response.location !== undefined) {
      if (redirects >= MAX_REDIRECTS) throw permanentError(`The page redirects more than ${MAX_REDIRECTS} times (last to ${response.location})`)
      if (!response.location) throw permanentError(`${url.href} answered a redirect without a Location`)
      url = checkedUrl(new URL(response.location, url).href)
      continue
    }
    const { status, etag, lastModified } = response
    if (status === 304 && headers) return { url: url.href, contentType: '', charset: null, body: Buffer.alloc(0), notModified: true, etag: etag ?? options.validators!.etag, lastModified: lastModified ?? options.validators!.lastModified }
    if (status === 404 || status === 410) throw new PageGone(`${url.href} answered ${status}: the page does not exist`)
    if (status === 429 || status >= 500) throw transientError(`${url.href} answered ${status}; it will be tried again`)
    if (status >= 400 || status === 304) throw permanentError(`${url.href} answered ${status}`)
    let body = response.body
    let type = response.contentType || options.accept[0]
    if (GZIP_TYPES.includes(type) && options.accept.some(t => (XML_TYPES as readonly string[]).includes(t))) {
      body = inflate(body, 'gzip', maxBytes)
      type = 'application/xml'
    }
    if (!options.accept.includes(type)) {
      throw permanentError(`${url.href} is of type ${type}; only ${options.accept.join(', ')} can be read`)
    }
    return { url: url.href, contentType: type, charset: response.charset, body, notModified: false, etag, lastModified }
  }
}

function conditionalHeaders(validators: HttpValidators | undefined): Record<string, string> | undefined {
  if (!validators?.etag && !validators?.lastModified) return undefined
  return {
    ...(validators.etag ? { 'if-none-match': validators.etag } : {}),
    ...(validators.lastModified ? { 'if-modified-since': validators.lastModified } : {}),
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

function inflate(body: Buffer, kind: 'gzip', maxBytes: number): Buffer {
  try {
    return zlib.gunzipSync(body, { maxOutputLength: maxBytes })
  } catch (error) {
    throw permanentError(`A compressed sitemap could not be read (${kind}, at most ${megabytes(maxBytes)}): ${messageOf(error)}`)
  }
}
