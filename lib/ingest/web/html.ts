import * as cheerio from 'cheerio'

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

/** An HTML page's title, main text (main/article preferred, page furniture dropped) and links. */
export function readHtml(body: Buffer, pageUrl: string, charset: string | null): ReadPage {
  const $ = cheerio.loadBuffer(body, { encoding: { transportLayerEncodingLabel: charset ?? undefined, defaultEncoding: 'utf-8' } })
  const base = resolve($('base[href]').attr('href') ?? '', pageUrl) ?? pageUrl
  const links = new Set<string>()
  $('a[href]').each((_, a) => {
    const href = resolve($(a).attr('href') ?? '', base)
    if (href) links.add(href)
  })
  const title =
    clean($('title').first().text()) || clean($('meta[property="og:title"]').attr('content') ?? '') || clean($('h1').first().text()) || null

  $(DROPPED).remove()
  $(FURNITURE).filter((_, el) => $(el).parents('main, article, [role="main"]').length === 0).remove()
  const root = [$('main').first(), $('[role="main"]').first(), $('article').first(), $('body').first()].find(r => r.length > 0 && clean(r.text()))
  const text = root ? textOf(root.get(0) as unknown as DomNode) : ''
  return { title, text, links: [...links] }
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

/** Text with block elements as paragraphs and <br> as line breaks; walked without recursion (deep pages). */
function textOf(root: DomNode): string {
  const out: string[] = []
  const stack: (DomNode | 'close')[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node === 'close') {
      out.push('\n\n')
      continue
    }
    if (node.type === 'text') {
      out.push((node.data ?? '').replace(/\s+/g, ' '))
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
  // spaces collapsed before those around line breaks are dropped: the other order reads a long run of spaces (a
  // table's empty cells) once from each of its spaces, quadratic (200,000 spaces took 40 s); the result is the same
  return out
    .join('')
    .replace(/ {2,}/g, ' ')
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
