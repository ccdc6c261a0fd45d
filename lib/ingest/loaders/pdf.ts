import { extractText, getDocumentProxy } from 'unpdf'
import { logger } from '@/lib/logger'
import { messageOf, permanentError } from '../errors'
import { MAX_PDF_PAGES } from '../limits'
import type { Section } from '../sections'
import { joinLines } from './lines'
import type { OcrRequest } from './ocr'
import { sparsePages, withScannedPagesRead } from './pdf-scans'
import { readPdfText, ThreadsUnavailable, type PdfText } from './reading-threads'

/**
 * PDF (unpdf, PDF.js built for servers): one section per page, with its page number. The text layer is read in a
 * worker thread (reading-threads.ts); scanned pages (no text layer) are then read by text recognition when `ocr` is given,
 * and say so (`ocr: true`).
 */
export async function loadPdf(data: Uint8Array, ocr?: OcrRequest): Promise<Section[]> {
  const read = await readText(data)
  if (read.kind === 'too_many_pages') throw permanentError(`The PDF has ${read.pages} pages; at most ${MAX_PDF_PAGES} are read`)
  if (read.kind === 'unreadable') {
    if (read.name === 'PasswordException') throw permanentError('The PDF could not be read: it is protected by a password')
    throw permanentError(`The PDF could not be read: ${read.message}`)
  }
  const { texts, recognised } = await withScans(data, read.texts, ocr)
  return texts.map((page, i) => (recognised.has(i + 1) ? { text: page, metadata: { page: i + 1, ocr: true } } : { text: joinLines(page), metadata: { page: i + 1 } }))
}

let threadsUnavailable = false

async function readText(data: Uint8Array): Promise<PdfText> {
  if (!threadsUnavailable) {
    try {
      return await readPdfText(data, MAX_PDF_PAGES)
    } catch (error) {
      if (!(error instanceof ThreadsUnavailable)) throw error
      threadsUnavailable = true
      logger.warn('PDFs are read in-process: the reading thread could not load unpdf', { reason: error.message })
    }
  }
  return readTextHere(data)
}

/** The same reading on this thread, where worker threads cannot load unpdf (another working directory). */
async function readTextHere(data: Uint8Array): Promise<PdfText> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined
  try {
    // PDF.js may take ownership of the buffer: give it a copy; verbosity 0 keeps its warnings off the logs
    pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 })
    if (pdf.numPages > MAX_PDF_PAGES) return { kind: 'too_many_pages', pages: pdf.numPages }
    const { text } = await extractText(pdf, { mergePages: false })
    return { kind: 'pages', texts: text }
  } catch (error) {
    return { kind: 'unreadable', name: (error as Error)?.name ?? 'Error', message: messageOf(error) }
  } finally {
    await pdf?.destroy().catch(() => {})
  }
}

/** Pages without a text layer recognised: the document is opened here again only when some page is nearly empty. */
async function withScans(data: Uint8Array, texts: string[], ocr: OcrRequest | undefined) {
  const none = { texts, recognised: new Set<number>() }
  if (!ocr || sparsePages(texts).length === 0) return none
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 }).catch(() => null)
  if (!pdf) return none
  try {
    return await withScannedPagesRead(pdf, texts, ocr)
  } finally {
    await pdf.destroy().catch(() => {})
  }
}
