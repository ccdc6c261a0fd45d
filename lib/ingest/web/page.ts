import { permanentError } from '../errors'
import { decodeText } from '../loaders/decode'
import { HTML_TYPES, safeFetch, TEXT_TYPES, type HttpValidators } from './fetcher'
import { readPage } from './render'
import { inSpan } from '@/lib/tracing/spans'

export interface WebPage {
  /** The URL finally answered (after redirects). */
  url: string
  title: string | null
  text: string
  /** The answer's ETag and Last-Modified, for a conditional fetch next time. */
  validators: HttpValidators
}

/**
 * Fetches one page through the guarded fetcher and keeps its title and main text (HTML, rendered first when its
 * scripts make its content: render/index.ts) or its text (plain). With the validators of the copy held, the request
 * is conditional: a 304 answers `notModified`, with nothing parsed.
 */
export async function fetchWebPage(url: string, options: { signal?: AbortSignal; validators?: HttpValidators } = {}): Promise<WebPage | { notModified: true; validators: HttpValidators }> {
  const page = await inSpan('sync.fetch', { 'sync.source': 'web' }, () => safeFetch(url, { accept: [...HTML_TYPES, ...TEXT_TYPES], signal: options.signal, validators: options.validators }))
  const validators = { etag: page.etag, lastModified: page.lastModified }
  if (page.notModified) return { notModified: true, validators }
  const read = await inSpan('sync.parse', { 'sync.content_type': page.contentType }, async () =>
    (HTML_TYPES as readonly string[]).includes(page.contentType) ? readPage(page, options.signal) : { title: null, text: decodeText(page.body, page.charset) },
  )
  if (!read.text.trim()) throw permanentError(`The page ${page.url} has no text`)
  return { url: page.url, title: read.title, text: read.text, validators }
}
