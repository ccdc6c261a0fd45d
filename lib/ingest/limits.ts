// Bounds on the work one file may cause, so a hostile or accidental upload cannot exhaust the worker's memory.

/** Entries in an Office file (a ZIP). */
export const MAX_ZIP_ENTRIES = 10_000
/** Bytes an Office file may expand to, all entries together. */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 256 * 1024 * 1024
/** Pages read from a PDF. */
export const MAX_PDF_PAGES = 5_000
/** Scanned pages of one PDF whose text is recognised (about a second of one core each). */
export const MAX_OCR_PAGES = 1_000
/** Characters of text extracted from one datasource. */
export const MAX_TEXT_CHARS = 64 * 1024 * 1024
/** Nesting of a JSON document that is flattened into key paths (deeper values are kept as JSON text). */
export const MAX_JSON_DEPTH = 64

export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}
