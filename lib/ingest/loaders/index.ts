import { ACCEPTED_FILE_TYPES, type AcceptedFileType } from '@/lib/domain/file-types'
import { permanentError } from '../errors'
import { MAX_TEXT_CHARS } from '../limits'
import { hasText, textSizeOf, type Section } from '../sections'
import { loadCsv } from './csv'
import { charsetOf } from './decode'
import { loadDocx } from './docx'
import { loadHtml } from './html'
import { loadImage } from './image'
import { loadJson } from './json'
import { loadMarkdown } from './markdown'
import type { OcrRequest } from './ocr'
import { loadPdf } from './pdf'
import { loadPptx } from './pptx'
import { loadText } from './text'
import { loadXlsx } from './xlsx'

export type { OcrRequest } from './ocr'

export interface LoadOptions {
  /** Text recognition for images and scanned PDF pages; without it (a request path) none is done. */
  ocr?: OcrRequest
}

type Loader = (data: Uint8Array, options: LoadOptions & { charset: string | null }) => Promise<Section[]>

// Each accepted type (lib/domain/file-types.ts) read by a real parser; images and scans by text recognition
const LOADERS: Record<AcceptedFileType, Loader> = {
  'application/pdf': (data, { ocr }) => loadPdf(data, ocr),
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': loadDocx,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': loadPptx,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': loadXlsx,
  'text/csv': (data, { charset }) => loadCsv(data, charset),
  'application/json': (data, { charset }) => loadJson(data, charset),
  'text/markdown': (data, { charset }) => loadMarkdown(data, charset),
  'text/plain': (data, { charset }) => loadText(data, charset),
  'text/html': (data, { charset }) => loadHtml(data, charset),
  'image/png': (data, { ocr }) => loadImage(data, ocr),
  'image/jpeg': (data, { ocr }) => loadImage(data, ocr),
  'image/webp': (data, { ocr }) => loadImage(data, ocr),
  'image/tiff': (data, { ocr }) => loadImage(data, ocr),
}

/**
 * The text of a stored original, in sections (pages, slides, sheets…). A type we do not read, a damaged file,
 * or one without any text is a permanent IngestError with a reason a user can read.
 */
export async function loadOriginal(data: Uint8Array, contentType: string, options: LoadOptions = {}): Promise<Section[]> {
  const type = contentType.split(';')[0].trim().toLowerCase()
  if (!isAccepted(type)) throw permanentError(`Files of type ${type || 'unknown'} cannot be read; accepted: ${ACCEPTED_FILE_TYPES.join(', ')}`)
  const loader = LOADERS[type]
  if (data.byteLength === 0) throw permanentError('The file is empty')
  const sections = await loader(data, { ...options, charset: charsetOf(contentType) })
  if (!hasText(sections)) throw permanentError('The file has no text')
  if (textSizeOf(sections) > MAX_TEXT_CHARS) {
    throw permanentError(`The file has more than ${MAX_TEXT_CHARS.toLocaleString('en')} characters of text, more than one datasource may hold`)
  }
  return sections
}

function isAccepted(type: string): type is AcceptedFileType {
  return (ACCEPTED_FILE_TYPES as readonly string[]).includes(type)
}
