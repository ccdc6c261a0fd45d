import type { Section } from '../sections'
import { decodeText } from './decode'

/**
 * Markdown, kept as written (headings, lists and code read well to a model and to full-text search) without what
 * a reader never sees: YAML front matter, HTML comments, and link and image targets (their text stays).
 */
export async function loadMarkdown(data: Uint8Array, charset?: string | null): Promise<Section[]> {
  const text = decodeText(data, charset)
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
  return [{ text, metadata: {} }]
}
