import { messageOf, permanentError } from '../errors'
import { MAX_JSON_DEPTH } from '../limits'
import type { Section } from '../sections'
import { decodeText } from './decode'

/**
 * JSON: every value as a "key.path: value" line. A top-level array gives one paragraph per item (paths relative
 * to the item), a top-level object one paragraph per key, so related values stay in one chunk.
 */
export async function loadJson(data: Uint8Array, charset?: string | null): Promise<Section[]> {
  let value: unknown
  try {
    value = JSON.parse(decodeText(data, charset))
  } catch (error) {
    throw permanentError(`The JSON file could not be read: ${messageOf(error)}`, error)
  }
  const paragraphs: string[] = []
  if (Array.isArray(value)) {
    for (const item of value) paragraphs.push(linesOf(item, '').join('\n'))
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paragraphs.push(linesOf(item, key).join('\n'))
  } else {
    paragraphs.push(linesOf(value, '').join('\n'))
  }
  return [{ text: paragraphs.filter(Boolean).join('\n\n'), metadata: {} }]
}

function linesOf(value: unknown, path: string, depth = 0, lines: string[] = []): string[] {
  if (value === null || value === undefined || value === '') return lines
  if (typeof value !== 'object') {
    lines.push(path ? `${path}: ${String(value)}` : String(value))
  } else if (depth >= MAX_JSON_DEPTH) {
    lines.push(`${path}: ${JSON.stringify(value)}`)
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => linesOf(item, `${path}[${i}]`, depth + 1, lines))
  } else {
    for (const [key, item] of Object.entries(value)) linesOf(item, path ? `${path}.${key}` : key, depth + 1, lines)
  }
  return lines
}
