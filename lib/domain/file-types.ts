// The file types an upload may have: the spec's eight (§4.5), HTML, and images whose text is recognised (OCR); and how
// a part without a useful type is typed from its file name. Everything that lists accepted types reads this file.

export const ACCEPTED_FILE_TYPES = [
  'text/csv',
  'text/plain',
  'text/markdown',
  'text/html',
  'application/pdf',
  'application/json',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/tiff',
] as const

export type AcceptedFileType = (typeof ACCEPTED_FILE_TYPES)[number]

/** Images: their text is read by optical character recognition in the sync worker. */
export const IMAGE_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/tiff'] as const satisfies readonly AcceptedFileType[]

export type ImageFileType = (typeof IMAGE_FILE_TYPES)[number]

const BY_EXTENSION: Record<string, AcceptedFileType> = {
  csv: 'text/csv',
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  json: 'application/json',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
}

/** The file name extensions (without the dot) a file of `type` is recognised by, e.g. ['md', 'markdown']. */
export function extensionsOf(type: AcceptedFileType): string[] {
  return Object.keys(BY_EXTENSION).filter(ext => BY_EXTENSION[ext] === type)
}

// Other names clients use for the same formats
const ALIASES: Record<string, AcceptedFileType> = {
  'text/x-markdown': 'text/markdown',
  'application/csv': 'text/csv',
  'text/x-csv': 'text/csv',
  'text/comma-separated-values': 'text/csv',
  'text/json': 'application/json',
  'application/x-pdf': 'application/pdf',
  'application/xhtml+xml': 'text/html',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/tif': 'image/tiff',
  'image/x-tiff': 'image/tiff',
}

// Types that say nothing about the content: the file name decides
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown'])

function extensionOf(fileName: string | undefined): string | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '')
  return match ? match[1].toLowerCase() : null
}

/**
 * The accepted type of an uploaded file, or null when it is not one we read. A generic declared type
 * (application/octet-stream, or none) is resolved from the first file name that has a known extension.
 */
export function resolveFileType(declared: string | null | undefined, fileNames: (string | undefined)[]): AcceptedFileType | null {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase()
  if ((ACCEPTED_FILE_TYPES as readonly string[]).includes(type)) return type as AcceptedFileType
  if (ALIASES[type]) return ALIASES[type]
  const extensions = fileNames.map(extensionOf)
  // Windows browsers declare .csv files as Excel's old type
  if (type === 'application/vnd.ms-excel' && extensions.includes('csv')) return 'text/csv'
  if (!GENERIC.has(type)) return null
  for (const ext of extensions) if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext]
  return null
}
