import mammoth from 'mammoth'
import { messageOf, permanentError } from '../errors'
import type { Section } from '../sections'
import { openCheckedZip } from './zip-guard'

/** DOCX (mammoth): the document's text, paragraphs separated by blank lines. */
export async function loadDocx(data: Uint8Array): Promise<Section[]> {
  await openCheckedZip(data, 'DOCX')
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data) })
    return [{ text: value, metadata: {} }]
  } catch (error) {
    throw permanentError(`The DOCX file could not be read: ${messageOf(error)}`, error)
  }
}
