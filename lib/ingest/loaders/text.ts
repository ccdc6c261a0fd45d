import type { Section } from '../sections'
import { decodeText } from './decode'

/** Plain text, decoded (byte-order mark, declared charset, else UTF-8). */
export async function loadText(data: Uint8Array, charset?: string | null): Promise<Section[]> {
  return [{ text: decodeText(data, charset), metadata: {} }]
}
