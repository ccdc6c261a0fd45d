import JSZip from 'jszip'
import { messageOf, permanentError } from '../errors'
import { MAX_ZIP_ENTRIES, MAX_ZIP_UNCOMPRESSED_BYTES, megabytes } from '../limits'

/**
 * Opens an Office file (a ZIP) after checking, by actually inflating every entry as a stream, that it has at most
 * MAX_ZIP_ENTRIES entries and expands to at most MAX_ZIP_UNCOMPRESSED_BYTES: sizes declared in a ZIP can lie, and
 * a "zip bomb" of a few kilobytes can expand to gigabytes inside a parser.
 */
export async function openCheckedZip(data: Uint8Array, kind: string, limits = { entries: MAX_ZIP_ENTRIES, bytes: MAX_ZIP_UNCOMPRESSED_BYTES }): Promise<JSZip> {
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(data)
  } catch (error) {
    throw permanentError(`The ${kind} file could not be read: it is not a valid ${kind} file (${messageOf(error)})`, error)
  }
  const files = Object.values(zip.files).filter(f => !f.dir)
  if (files.length > limits.entries) {
    throw permanentError(`The ${kind} file could not be read: it has ${files.length} parts, more than the ${limits.entries} allowed`)
  }
  let total = 0
  for (const file of files) {
    total += await inflatedSize(file, limits.bytes - total).catch(error => {
      if (error instanceof TooLarge) throw permanentError(`The ${kind} file could not be read: it expands to more than ${megabytes(limits.bytes)}`)
      throw permanentError(`The ${kind} file could not be read: a part is damaged (${messageOf(error)})`, error)
    })
  }
  return zip
}

class TooLarge extends Error {}

// JSZip's documented ZipObject#internalStream, missing from its type definitions
interface StreamableZipObject {
  internalStream(type: 'uint8array'): JSZip.JSZipStreamHelper<Uint8Array>
}

function inflatedSize(file: JSZip.JSZipObject, remaining: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0
    // internalStream inflates in blocks of 16 KB of compressed input: memory stays bounded whatever the ratio
    const stream = (file as unknown as StreamableZipObject).internalStream('uint8array')
    stream
      .on('data', (chunk: Uint8Array) => {
        size += chunk.length
        if (size > remaining) {
          stream.pause()
          reject(new TooLarge())
        }
      })
      .on('error', reject)
      .on('end', () => resolve(size))
      .resume()
  })
}
