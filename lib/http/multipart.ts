import { once } from 'node:events'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import Busboy from 'busboy'
import { dataDir } from '@/lib/config'
import { InvalidRequest, PayloadTooLarge } from './errors'

// A multipart/form-data body read as it arrives (issue 22): its files are written to disk under DATA_DIR/tmp as they
// stream in, never held in memory (a 50 MB upload used to be buffered three or four times over), and the reading
// stops with a 413 as soon as the body passes its limit, whether or not Content-Length said so. The files come back
// as disk-backed File objects of an ordinary FormData; their folder is removed by disposeForm() once they are stored.

const folders = new WeakMap<FormData, string>()
const diskPaths = new WeakMap<Blob, string>()

/** Where uploads wait on disk: on DATA_DIR's file system, so that storing an original is a rename. */
export function uploadsTmpRoot(): string {
  return path.join(dataDir(), 'tmp', 'uploads')
}

/** The file on disk behind a File that streamMultipart returned, or undefined for any other. */
export function diskPathOf(file: Blob): string | undefined {
  return diskPaths.get(file)
}

/** Removes the files of a form streamMultipart returned (nothing for any other form). */
export async function disposeForm(form: FormData): Promise<void> {
  const folder = folders.get(form)
  folders.delete(form)
  if (folder) await fsp.rm(folder, { recursive: true, force: true })
}

const tooLarge = (limit: number) => new PayloadTooLarge(`The request body is larger than ${Math.round(limit / 1024 / 1024)} MB`, { limitBytes: limit })
const malformed = () => new InvalidRequest('The multipart body is malformed or truncated')

interface Streamed {
  fields: [string, string][]
  files: { field: string; filename: string; mimeType: string; path: string }[]
}

/** Reads the body into fields and files on disk; rejects with 413 past `limitBytes`, 400 when malformed or cut. */
export async function streamMultipart(body: ReadableStream<Uint8Array>, contentType: string, limitBytes: number): Promise<FormData> {
  const root = uploadsTmpRoot()
  await fsp.mkdir(root, { recursive: true })
  const folder = await fsp.mkdtemp(path.join(root, 'upload-'))
  try {
    const streamed = await parseInto(folder, body, contentType, limitBytes)
    const form = new FormData()
    for (const [name, value] of streamed.fields) form.append(name, value)
    for (const f of streamed.files) {
      const file = new File([await fs.openAsBlob(f.path, { type: f.mimeType })], f.filename, { type: f.mimeType })
      diskPaths.set(file, f.path)
      form.append(f.field, file)
    }
    folders.set(form, folder)
    return form
  } catch (error) {
    await fsp.rm(folder, { recursive: true, force: true })
    throw error
  }
}

async function parseInto(folder: string, body: ReadableStream<Uint8Array>, contentType: string, limitBytes: number): Promise<Streamed> {
  let parser: Busboy.Busboy
  try {
    // browsers and undici send a file name's UTF-8 bytes as they are (busboy's default reads them as Latin-1)
    parser = Busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fileSize: limitBytes, files: 5, fields: 20, fieldSize: 64 * 1024, parts: 30 } })
  } catch {
    throw malformed()
  }
  const streamed: Streamed = { fields: [], files: [] }
  const writes: Promise<void>[] = []
  let failure: Error | null = null
  const fail = (error: Error) => {
    failure ??= error
  }
  parser.on('field', (name, value) => streamed.fields.push([name, value]))
  parser.on('file', (field, stream, info) => {
    const target = path.join(folder, String(streamed.files.length))
    streamed.files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType || 'application/octet-stream', path: target })
    stream.on('limit', () => fail(tooLarge(limitBytes)))
    writes.push(pipeline(stream, fs.createWriteStream(target)).catch(() => fail(malformed())))
  })
  parser.on('error', () => fail(malformed()))
  const finished = new Promise<void>(resolve => parser.on('close', () => resolve()))
  // feed the parser from the request, counting bytes, and waiting when it (and the disk behind it) is behind
  let size = 0
  const reader = body.getReader()
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch {
        throw new InvalidRequest('The request body could not be read to its end')
      }
      if (chunk.done) break
      size += chunk.value.byteLength
      if (size > limitBytes) throw tooLarge(limitBytes)
      if (failure) throw failure
      if (!parser.write(chunk.value)) await Promise.race([once(parser, 'drain'), finished])
    }
    parser.end()
    await finished
    await Promise.all(writes)
    if (failure) throw failure
    return streamed
  } catch (error) {
    await reader.cancel().catch(() => {})
    parser.destroy()
    await Promise.allSettled(writes)
    throw error
  }
}
