import { permanentError } from '../errors'

/**
 * Bytes to text: a byte-order mark wins, then the declared charset, then UTF-8 (invalid bytes become U+FFFD).
 * Refuses content that is clearly binary (NUL bytes in UTF-8 text).
 */
export function decodeText(data: Uint8Array, charset?: string | null): string {
  let encoding = 'utf-8'
  let start = 0
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
    start = 3
  } else if (data[0] === 0xff && data[1] === 0xfe) {
    encoding = 'utf-16le'
    start = 2
  } else if (data[0] === 0xfe && data[1] === 0xff) {
    encoding = 'utf-16be'
    start = 2
  } else if (charset) {
    encoding = charset.trim().toLowerCase()
  }
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(encoding)
  } catch {
    decoder = new TextDecoder('utf-8')
  }
  if (decoder.encoding === 'utf-8' && data.subarray(0, 8192).includes(0)) {
    throw permanentError('The file is not text: it contains binary data')
  }
  return decoder.decode(data.subarray(start))
}

/** The charset parameter of a content type ("text/plain; charset=latin1" → "latin1"). */
export function charsetOf(contentType: string | null | undefined): string | null {
  const match = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')
  return match ? match[1] : null
}
