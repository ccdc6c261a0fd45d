import { permanentError } from '../errors'
import { decodeText } from '../loaders/decode'
import { HTML_TYPES, safeFetch, TEXT_TYPES } from './fetcher'
import { readHtml } from './html'

export interface WebPage {
  /** The URL finally answered (after redirects). */
  url: string
  title: string | null
  text: string
}

/** Fetches one page through the guarded fetcher and keeps its title and main text (HTML) or its text (plain). */
export async function fetchWebPage(url: string, options: { signal?: AbortSignal } = {}): Promise<WebPage> {
  const page = await safeFetch(url, { accept: [...HTML_TYPES, ...TEXT_TYPES], signal: options.signal })
  const read = (HTML_TYPES as readonly string[]).includes(page.contentType)
    ? readHtml(page.body, page.url, page.charset)
    : { title: null, text: decodeText(page.body, page.charset) }
  if (!read.text.trim()) throw permanentError(`The page ${page.url} has no text`)
  return { url: page.url, title: read.title, text: read.text }
}
