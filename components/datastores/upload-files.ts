// Which files the dropzone accepts: the types of lib/domain/file-types.ts, by MIME type and by the
// extensions the server recognises them by. Their size limit is the server's, read from useServerLimits().
import { ACCEPTED_FILE_TYPES, extensionsOf, IMAGE_FILE_TYPES, type AcceptedFileType } from '@/lib/domain/file-types'

/** The accepted types with the extensions a browser may know them by (react-dropzone's `accept`). */
export const ACCEPTED_FILES: Record<string, string[]> = Object.fromEntries(
  ACCEPTED_FILE_TYPES.map(type => [type, extensionsOf(type).map(ext => `.${ext}`)]),
)

// In the order they are listed to users
const FILE_TYPE_LABELS: Record<AcceptedFileType, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word (.docx)',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint (.pptx)',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel (.xlsx)',
  'text/csv': 'CSV',
  'text/markdown': 'Markdown',
  'text/plain': 'plain text',
  'application/json': 'JSON',
  'text/html': 'HTML',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/tiff': 'TIFF',
}

const IMAGES = new Set<string>(IMAGE_FILE_TYPES)
const labelsOf = (images: boolean) => (Object.keys(FILE_TYPE_LABELS) as AcceptedFileType[]).filter(t => IMAGES.has(t) === images).map(t => FILE_TYPE_LABELS[t])

/** "PDF, Word (.docx), …, HTML, images (PNG, JPEG, WebP, TIFF: their text is recognised)". */
export const ACCEPTED_LABEL = `${labelsOf(false).join(', ')}, images (${labelsOf(true).join(', ')}: their text is recognised)`

export const bytesOfMb = (mb: number) => mb * 1024 * 1024

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
