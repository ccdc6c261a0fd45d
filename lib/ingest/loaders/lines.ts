/**
 * PDF text and recognised text (OCR) come as visual lines: a sentence broken across lines is joined again (and a
 * word hyphenated at a line end), while a line ending a sentence or followed by an empty line keeps its break.
 */
export function joinLines(page: string): string {
  return page
    .replace(/\r\n?/g, '\n')
    .replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2')
    .replace(/([^\n.!?:;])\n(?=[^\n])/g, '$1 ')
}
