import type { Section } from '../sections'
import { decodeText } from './decode'

/**
 * Markdown, kept as written (headings, lists and code read well to a model and to full-text search) without what
 * a reader never sees: YAML front matter, HTML comments, and link and image targets (their text stays).
 */
export async function loadMarkdown(data: Uint8Array, charset?: string | null): Promise<Section[]> {
  const text = decodeText(data, charset).replace(/^---\n[\s\S]*?\n---\n/, '')
  return [{ text: withoutLinkTargets(withoutLinkTargets(withoutComments(text), '!['), '['), metadata: {} }]
}

// Both are scans rather than regular expressions: /<!--[\s\S]*?-->/g and /\[([^\]]+)\]\([^)]*\)/g try again from
// every "<!--" or "[" that has no end, each attempt reading to the end of the text: quadratic (a 200 KB file of "["
// took 52 s, holding the event loop the web server shares). Each scan below reads the text once, with the same result.

/** The text without its HTML comments ("<!--" to the first "-->" after it; one never closed is left as written). */
export function withoutComments(text: string): string {
  let out = ''
  let kept = 0
  for (;;) {
    const open = text.indexOf('<!--', kept)
    const close = open === -1 ? -1 : text.indexOf('-->', open + 4)
    if (close === -1) return out + text.slice(kept)
    out += text.slice(kept, open)
    kept = close + 3
  }
}

/**
 * The text with each link `[text](target)` (or image, `opener` "![") replaced by its text: from the first opener after
 * the last replacement, the text runs to the first "]" (non-empty for a link), then "(" and the first ")".
 */
export function withoutLinkTargets(text: string, opener: '[' | '!['): string {
  let out = ''
  let kept = 0
  let from = 0
  for (;;) {
    const open = text.indexOf(opener, from)
    const close = open === -1 ? -1 : text.indexOf(']', open + opener.length)
    if (close === -1) break
    // the openers between `open` and `close` share this "]": the first of them is the only one that may match
    const matches = text[close + 1] === '(' && (opener === '![' || close > open + 1)
    if (!matches) {
      from = close + 1
      continue
    }
    const end = text.indexOf(')', close + 2)
    if (end === -1) break
    out += text.slice(kept, open) + text.slice(open + opener.length, close)
    kept = from = end + 1
  }
  return out + text.slice(kept)
}
