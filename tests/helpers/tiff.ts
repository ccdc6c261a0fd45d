/**
 * A baseline TIFF (uncompressed, 8-bit grey, one strip) of an RGBA image: browsers and canvas libraries cannot
 * write TIFF, and scanners do.
 */
export function encodeGreyTiff(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height)
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round((rgba[i * 4] * 299 + rgba[i * 4 + 1] * 587 + rgba[i * 4 + 2] * 114) / 1000)
  const entries: [tag: number, type: number, value: number][] = [
    [256, 4, width], // ImageWidth
    [257, 4, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: black is zero
    [273, 4, 0], // StripOffsets (filled below)
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, pixels.length], // StripByteCounts
  ]
  const ifdSize = 2 + entries.length * 12 + 4
  const dataOffset = 8 + ifdSize
  const out = new Uint8Array(dataOffset + pixels.length)
  const view = new DataView(out.buffer)
  out.set([0x49, 0x49, 42, 0]) // little-endian, magic 42
  view.setUint32(4, 8, true)
  view.setUint16(8, entries.length, true)
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12
    view.setUint16(at, tag, true)
    view.setUint16(at + 2, type, true)
    view.setUint32(at + 4, 1, true)
    if (type === 3) view.setUint16(at + 8, value, true)
    else view.setUint32(at + 8, tag === 273 ? dataOffset : value, true)
  })
  out.set(pixels, dataOffset)
  return out
}
