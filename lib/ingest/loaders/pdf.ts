import { extractText, getDocumentProxy } from 'unpdf'
import { messageOf, permanentError } from '../errors'
import { MAX_PDF_PAGES } from '../limits'
import type { Section } from '../sections'
import { joinLines } from './lines'
import type { OcrRequest } from './ocr'
import { withScannedPagesRead } from './pdf-scans'

/**
 * PDF (unpdf, PDF.js built for servers): one section per page, with its page number; scanned pages (no text layer)
 * are read by text recognition when `ocr` is given, and say so (`ocr: true`).
 */
export async function loadPdf(data: Uint8Array, ocr?: OcrRequest): Promise<Section[]> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    // PDF.js may take ownership of the buffer: give it a copy; verbosity 0 keeps its warnings off the logs
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 })
  } catch (error) {
    if ((error as Error)?.name === 'PasswordException') throw permanentError('The PDF could not be read: it is protected by a password', error)
    throw permanentError(`The PDF could not be read: ${messageOf(error)}`, error)
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw permanentError(`The PDF has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are read`)
    }
    const { text } = await extractText(pdf, { mergePages: false }).catch(error => {
      throw permanentError(`The PDF could not be read: ${messageOf(error)}`, error)
    })
    const { texts, recognised } = await withScannedPagesRead(pdf, text, ocr)
    return texts.map((page, i) => (recognised.has(i + 1) ? { text: page, metadata: { page: i + 1, ocr: true } } : { text: joinLines(page), metadata: { page: i + 1 } }))
  } finally {
    await pdf.destroy().catch(() => {})
  }
}
