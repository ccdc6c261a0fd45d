import { ACCEPTED_FILE_TYPES, type AcceptedFileType } from '@/lib/domain/file-types'
import { permanentError } from '../errors'
import { MAX_TEXT_CHARS } from '../limits'
import { hasText, textSizeOf, type Section } from '../sections'
import { loadCsv } from './csv'
import { charsetOf } from './decode'
import { loadDocx } from './docx'
import { loadJson } from './json'
import { loadMarkdown } from './markdown'
import { loadPdf } from './pdf'
import { loadPptx } from './pptx'
import { loadText } from './text'
import { loadXlsx } from './xlsx'

type Loader = (data: Uint8Array, charset: string | null) => Promise<Section[]>

// The spec's eight types (§4.5), each read by a real parser
const LOADERS: Record<AcceptedFileType, Loader> = {
  'application/pdf': loadPdf,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': loadDocx,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': loadPptx,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': loadXlsx,
  'text/csv': loadCsv,
  'application/json': loadJson,
  'text/markdown': loadMarkdown,
  'text/plain': loadText,
}

/**
 * The text of a stored original, in sections (pages, slides, sheets…). A type outside the eight, a damaged file,
 * or one without any text is a permanent IngestError with a reason a user can read.
 */
export async function loadOriginal(data: Uint8Array, contentType: string): Promise<Section[]> {
  const type = contentType.split(';')[0].trim().toLowerCase()
  if (!isAccepted(type)) throw permanentError(`Files of type ${type || 'unknown'} cannot be read; accepted: ${ACCEPTED_FILE_TYPES.join(', ')}`)
  const loader = LOADERS[type]
  if (data.byteLength === 0) throw permanentError('The file is empty')
  const sections = await loader(data, charsetOf(contentType))
  if (!hasText(sections)) throw permanentError('The file has no text')
  if (textSizeOf(sections) > MAX_TEXT_CHARS) {
    throw permanentError(`The file has more than ${MAX_TEXT_CHARS.toLocaleString('en')} characters of text, more than one datasource may hold`)
  }
  return sections
}

function isAccepted(type: string): type is AcceptedFileType {
  return (ACCEPTED_FILE_TYPES as readonly string[]).includes(type)
}
