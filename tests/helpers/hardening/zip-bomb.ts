import zlib from 'node:zlib'

// ZIP files built by hand, so a test can make an Office file whose part inflates to gigabytes from about a megabyte,
// with honest or lying sizes, without ever holding the inflated bytes (the test's own memory stays bounded).

interface Entry {
  name: string
  /** Raw deflate data. */
  data: Buffer
  crc: number
  size: number
  /** The uncompressed size written in the headers (a lie when it differs from size). */
  declaredSize?: number
}

const UNIT = 16 * 1024 * 1024

/** Raw deflate of `bytes` zeros (rounded up to 16 MB), ~1 kB per MB, with its CRC-32. */
export function deflatedZeros(bytes: number): { data: Buffer; crc: number; size: number } {
  const unit = Buffer.alloc(UNIT)
  const block = zlib.deflateRawSync(unit, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })
  const reps = Math.ceil(bytes / UNIT)
  let crc = 0
  for (let i = 0; i < reps; i++) crc = zlib.crc32(unit, crc)
  // non-final blocks, each valid after zeros, then an empty final stored block
  return { data: Buffer.concat([...Array.from({ length: reps }, () => block), Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff])]), crc: crc >>> 0, size: reps * UNIT }
}

export function deflatedText(text: string): { data: Buffer; crc: number; size: number } {
  const raw = Buffer.from(text)
  return { data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw) >>> 0, size: raw.length }
}

export function buildZip(entries: Entry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name)
    const declared = e.declaredSize ?? e.size
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0, 6)
    local.writeUInt16LE(8, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(0x21, 12)
    local.writeUInt32LE(e.crc, 14)
    local.writeUInt32LE(e.data.length, 18)
    local.writeUInt32LE(declared % 2 ** 32, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0, 8)
    central.writeUInt16LE(8, 10)
    central.writeUInt16LE(0, 12)
    central.writeUInt16LE(0x21, 14)
    central.writeUInt32LE(e.crc, 16)
    central.writeUInt32LE(e.data.length, 20)
    central.writeUInt32LE(declared % 2 ** 32, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, e.data)
    centrals.push(central, name)
    offset += local.length + name.length + e.data.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cd.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, cd, end])
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`

/** An Office file (DOCX: word/document.xml, XLSX: xl/worksheets/sheet1.xml) whose main part inflates to `bytes`. */
export function officeBomb(kind: 'docx' | 'xlsx', bytes: number, { lieAboutSize = false } = {}): Buffer {
  const part = kind === 'docx' ? 'word/document.xml' : 'xl/worksheets/sheet1.xml'
  const zeros = deflatedZeros(bytes)
  return buildZip([
    { name: '[Content_Types].xml', ...deflatedText(CONTENT_TYPES) },
    { name: part, ...zeros, declaredSize: lieAboutSize ? 4096 : undefined },
  ])
}

/** A ZIP of `count` tiny parts (an entry-count bomb). */
export function manyEntries(count: number): Buffer {
  const tiny = deflatedText('x')
  return buildZip([{ name: '[Content_Types].xml', ...deflatedText(CONTENT_TYPES) }, ...Array.from({ length: count }, (_, i) => ({ name: `word/p${i}.xml`, ...tiny }))])
}
