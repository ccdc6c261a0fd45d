import type { ImageFileType } from '@/lib/domain/file-types'

/** Width and height in pixels, read from an image's header (nothing decoded), or null when the header does not say. */
export type ImageSize = { width: number; height: number }

// A PNG or TIFF of a blank poster compresses to almost nothing and decodes to gigabytes: the size is checked first
const READERS: Record<ImageFileType, (b: Uint8Array) => ImageSize | null> = {
  'image/png': b => (b.length >= 24 ? { width: be32(b, 16), height: be32(b, 20) } : null),
  'image/jpeg': jpegSize,
  'image/webp': webpSize,
  'image/tiff': tiffSize,
}

export function imageSize(type: ImageFileType, bytes: Uint8Array): ImageSize | null {
  return READERS[type](bytes)
}

const be16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1]
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0
const le16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8)
const le24 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)

// The frame header (SOFn, not DHT/JPG/DAC) holds height then width
function jpegSize(b: Uint8Array): ImageSize | null {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null
    const marker = b[i + 1]
    if (marker === 0xff) {
      i++
      continue
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { height: be16(b, i + 5), width: be16(b, i + 7) }
    i += 2 + be16(b, i + 2)
  }
  return null
}

function webpSize(b: Uint8Array): ImageSize | null {
  const chunk = String.fromCharCode(...b.subarray(12, 16))
  if (chunk === 'VP8X' && b.length >= 30) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 }
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8 ' && b.length >= 30) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff }
  return null
}

// The first image's directory: tags 256 (width) and 257 (height), SHORT or LONG
function tiffSize(b: Uint8Array): ImageSize | null {
  if (b.length < 8) return null
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
  const little = b[0] === 0x49
  const ifd = view.getUint32(4, little)
  if (ifd + 2 > b.length) return null
  const size: Partial<ImageSize> = {}
  const entries = view.getUint16(ifd, little)
  for (let n = 0; n < entries; n++) {
    const at = ifd + 2 + n * 12
    if (at + 12 > b.length) break
    const tag = view.getUint16(at, little)
    if (tag !== 256 && tag !== 257) continue
    const value = view.getUint16(at + 2, little) === 3 ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little)
    size[tag === 256 ? 'width' : 'height'] = value
  }
  return size.width !== undefined && size.height !== undefined ? (size as ImageSize) : null
}
