import type { ImageFileType } from '@/lib/domain/file-types'
import { permanentError } from '../errors'
import { imageSize } from './image-size'
import type { Section } from '../sections'
import { recognisePages, tidyRecognised, type OcrRequest } from './ocr'

// The first bytes of each image format: a file that starts otherwise is not one (damaged, or mislabelled)
const SIGNATURES: Record<ImageFileType, (b: Uint8Array) => boolean> = {
  'image/png': b => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v),
  'image/jpeg': b => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': b => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  'image/tiff': b => (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a),
}

/** Pixels of an image read at most (a page scanned at 600 dpi is about 35 million). */
export const MAX_IMAGE_PIXELS = 60_000_000

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end))
}

/**
 * An image (a photo or scan of a page): its text recognised by OCR, in the datastore's language. A TIFF of several
 * pages is read for its first page only.
 */
export async function loadImage(data: Uint8Array, ocr: OcrRequest | undefined): Promise<Section[]> {
  const format = (Object.keys(SIGNATURES) as ImageFileType[]).find(type => SIGNATURES[type](data))
  if (!format) throw permanentError('The image could not be read: it is not a PNG, JPEG, WebP or TIFF image (the file is damaged or of another type)')
  const size = imageSize(format, data)
  if (size && size.width * size.height > MAX_IMAGE_PIXELS) {
    throw permanentError(`The image is ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_PIXELS / 1e6} million pixels are read`)
  }
  if (!ocr) throw permanentError('The text of an image is recognised when the datasource is synchronised')
  const texts = await recognisePages([1], async () => data, ocr, () => 'The image')
  return [{ text: tidyRecognised(texts.get(1) ?? ''), metadata: { ocr: true } }]
}
