// The eight file types of the spec (§4.5), and how a part without a useful type is typed from its file name.

export const ACCEPTED_FILE_TYPES = [
  'text/csv',
  'text/plain',
  'text/markdown',
  'application/pdf',
  'application/json',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const

export type AcceptedFileType = (typeof ACCEPTED_FILE_TYPES)[number]

const BY_EXTENSION: Record<string, AcceptedFileType> = {
  csv: 'text/csv',
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  pdf: 'application/pdf',
  json: 'application/json',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
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
}

// Types that say nothing about the content: the file name decides
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown'])

function extensionOf(fileName: string | undefined): string | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '')
  return match ? match[1].toLowerCase() : null
}

/**
 * The accepted type of an uploaded file, or null when it is not one of the eight. A generic declared type
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
