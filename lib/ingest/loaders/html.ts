import { readHtml } from '../web/html'
import type { Section } from '../sections'

// Links in a file resolve against no site: relative ones are dropped, and only the text is kept anyway
const NO_SITE = 'file:///'

/** An HTML file, read as a web page is (main content preferred, page furniture and scripts dropped), with its title. */
export async function loadHtml(data: Uint8Array, charset: string | null): Promise<Section[]> {
  const { title, text } = await readHtml(Buffer.from(data.buffer, data.byteOffset, data.byteLength), NO_SITE, charset)
  return [{ text, metadata: title ? { title } : {} }]
}
