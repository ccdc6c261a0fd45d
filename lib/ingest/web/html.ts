import * as cheerio from 'cheerio'
import { TimeSlices } from '../time-slices'

export interface ReadPage {
  title: string | null
  /** The main text, paragraphs separated by blank lines. */
  text: string
  /** Absolute http(s) links of the whole page (navigation included), fragments removed. */
  links: string[]
}

// Never content: code, media, forms and page furniture
const DROPPED = 'script, style, noscript, template, svg, canvas, iframe, object, embed, form, button, select, [hidden], [aria-hidden="true"]'
// Page furniture, dropped unless it sits inside the main content
const FURNITURE = 'nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]'
const BLOCKS = new Set([
  'address', 'article', 'blockquote', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul',
])

// A page reaches the parser this many bytes at a time, the event loop let in between: parse5 reads 16 KB in ~2 ms, and
// a page of 8 MB held every request of the process for 2.6 s when read at once (session 28)
const PIECE_BYTES = 16 * 1024
// iconv-lite's refusal of a charset label it does not know (from the Content-Type or a <meta charset>)
const UNKNOWN_ENCODING = /^Encoding not recognized/

/**
 * An HTML page's title, main text (main/article preferred, page furniture dropped) and links. Parsed as browsers
 * parse (parse5, cheerio's default), its encoding sniffed as cheerio's loadBuffer does; the work is cut into turns so
 * that a page of megabytes does not hold the requests the process serves meanwhile.
 */
export async function readHtml(body: Buffer, pageUrl: string, charset: string | null): Promise<ReadPage> {
  const slices = new TimeSlices()
  const $ = await parsedInPieces(body, charset).catch(error => {
    if (!UNKNOWN_ENCODING.test(String(error?.message))) throw error
    // a label the decoder does not know (x-user-defined, valid for browsers): read as windows-1252, the web's default
    return parsedInPieces(Buffer.from(new TextDecoder('windows-1252').decode(body)), 'utf-8')
  })
  const base = resolve($('base[href]').attr('href') ?? '', pageUrl) ?? pageUrl
  const links = new Set<string>()
  for (const a of $('a[href]').toArray()) {
    const href = resolve($(a).attr('href') ?? '', base)
    if (href) links.add(href)
    if (slices.over) await slices.next()
  }
  const title =
    clean($('title').first().text()) || clean($('meta[property="og:title"]').attr('content') ?? '') || clean($('h1').first().text()) || null

  $(DROPPED).remove()
  $(FURNITURE).filter((_, el) => $(el).parents('main, article, [role="main"]').length === 0).remove()
  const root = [$('main').first(), $('[role="main"]').first(), $('article').first(), $('body').first()]
    .map(r => r.get(0) as unknown as DomNode | undefined)
    .find(node => node && holdsText(node))
  const text = root ? await textOf(root, slices) : ''
  return { title, text, links: [...links] }
}

/** The page parsed in pieces of PIECE_BYTES, each in its own turn of the event loop. */
function parsedInPieces(body: Buffer, charset: string | null): Promise<cheerio.CheerioAPI> {
  return new Promise((resolve, reject) => {
    const encoding = { transportLayerEncodingLabel: charset ?? undefined, defaultEncoding: 'utf-8' }
    const stream = cheerio.decodeStream({ encoding }, (error, $) => (error ? reject(error) : resolve($)))
    stream.on('error', reject)
    let at = 0
    const writeNext = () => {
      if (at >= body.length) return void stream.end()
      stream.write(body.subarray(at, (at += PIECE_BYTES)))
      setImmediate(writeNext)
    }
    writeNext()
  })
}

/** An absolute http(s) URL without its fragment, or null for mailto:, javascript:, malformed… */
export function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    url.hash = ''
    return url.href
  } catch {
    return null
  }
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

// The little of a parsed node (domhandler's) the walk below reads
interface DomNode {
  type: string
  data?: string
  name?: string
  children?: DomNode[]
}

/** Whether any text under `root` is more than whitespace (what cheerio's text() would say, without building it). */
function holdsText(root: DomNode): boolean {
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.type === 'text' && /\S/.test(node.data ?? '')) return true
    for (const child of node.children ?? []) stack.push(child)
  }
  return false
}

// Any run of whitespace as one space; a lone space, the commonest run, is not matched (replacing each of a page's
// million spaces by itself took most of the walk's time)
const WHITESPACE_RUN = /[^\S ]\s*| \s+/g

/** Text with block elements as paragraphs and <br> as line breaks; walked without recursion (deep pages). */
async function textOf(root: DomNode, slices: TimeSlices): Promise<string> {
  const out: string[] = []
  const stack: (DomNode | 'close')[] = [root]
  for (let visited = 1; stack.length > 0; visited++) {
    if (visited % 256 === 0 && slices.over) await slices.next()
    const node = stack.pop()!
    if (node === 'close') {
      out.push('\n\n')
      continue
    }
    if (node.type === 'text') {
      out.push((node.data ?? '').replace(WHITESPACE_RUN, ' '))
    } else if (node.type === 'tag') {
      const el = node
      if (el.name === 'br') {
        out.push('\n')
        continue
      }
      const block = BLOCKS.has(el.name ?? '')
      if (block) {
        out.push('\n\n')
        stack.push('close')
      } else if (el.name === 'td' || el.name === 'th') {
        out.push(' ')
      }
      const children = el.children ?? []
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
    }
  }
  return (await normalisedInSegments(out, slices)).trim()
}

// The walk's text is normalised this many characters at a time (~5 ms of regular expressions)
const SEGMENT_CHARS = 256 * 1024

/**
 * The walk's pieces joined, spaces and line breaks tidied, a segment at a time. Each segment is cut after a character
 * that is not a space, tab or line break, so no run of them spans two segments: the result is that of tidying the
 * whole text at once.
 */
async function normalisedInSegments(pieces: string[], slices: TimeSlices): Promise<string> {
  const segments: string[] = []
  let pending: string[] = []
  let size = 0
  for (const piece of pieces) {
    pending.push(piece)
    size += piece.length
    if (size < SEGMENT_CHARS) continue
    const joined = pending.join('')
    let cut = joined.length
    while (cut > 0 && ' \t\n'.includes(joined[cut - 1])) cut--
    segments.push(tidied(joined.slice(0, cut)))
    pending = [joined.slice(cut)]
    size = pending[0].length
    if (slices.over) await slices.next()
  }
  segments.push(tidied(pending.join('')))
  return segments.join('')
}

// spaces collapsed before those around line breaks are dropped: the other order reads a long run of spaces (a table's
// empty cells) once from each of its spaces, quadratic (200,000 spaces took 40 s); the result is the same
function tidied(text: string): string {
  return text
    .replace(/ {2,}/g, ' ')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
}
