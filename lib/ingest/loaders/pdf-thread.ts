import { Worker } from 'node:worker_threads'
import { logger } from '@/lib/logger'

/** What reading a PDF's text layer gave: each page's text, or why not. */
export type PdfText =
  | { kind: 'pages'; texts: string[] }
  | { kind: 'too_many_pages'; pages: number }
  | { kind: 'unreadable'; name: string; message: string }

// The thread's own code, plain JavaScript evaluated by node:worker_threads (a file beside this one would not survive
// Next's bundling). `unpdf` is resolved from the working directory, the app's root, as `npm start` and the tests run.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads')
let unpdf
parentPort.on('message', async ({ id, data, maxPages }) => {
  try {
    unpdf ??= await import('unpdf')
  } catch (error) {
    return parentPort.postMessage({ id, unavailable: String(error && error.message || error) })
  }
  let pdf
  try {
    pdf = await unpdf.getDocumentProxy(data, { verbosity: 0 })
    if (pdf.numPages > maxPages) return parentPort.postMessage({ id, result: { kind: 'too_many_pages', pages: pdf.numPages } })
    const { text } = await unpdf.extractText(pdf, { mergePages: false })
    parentPort.postMessage({ id, result: { kind: 'pages', texts: text } })
  } catch (error) {
    parentPort.postMessage({ id, result: { kind: 'unreadable', name: String(error && error.name || 'Error'), message: String(error && error.message || error) } })
  } finally {
    if (pdf) await pdf.destroy().catch(() => {})
  }
})
`

// A resting thread (PDF.js and what the last file left in its heap) is let go after this long without work
const IDLE_MS = 30_000
// Two threads: two large PDFs read at once (the worker's two lanes) without a third waiting behind them
const THREADS = 2

interface Reader {
  worker: Worker
  busy: boolean
  idleTimer?: NodeJS.Timeout
}

/** Raised when threads cannot run here (unpdf not found from the working directory): read in-process instead. */
export class ThreadsUnavailable extends Error {}

/**
 * PDF text layers read in worker threads, so a 5,000-page file keeps the web server's event loop free (PDF.js takes
 * about 5 ms of CPU a page and yields rarely: two such files read in-process delayed every request by seconds).
 */
class PdfReaders {
  private readers: Reader[] = []
  private waiting: ((reader: Reader) => void)[] = []
  private nextId = 0

  async read(data: Uint8Array, maxPages: number): Promise<PdfText> {
    const reader = await this.acquire()
    try {
      return await this.ask(reader, data, maxPages)
    } finally {
      this.release(reader)
    }
  }

  private ask(reader: Reader, data: Uint8Array, maxPages: number): Promise<PdfText> {
    const id = this.nextId++
    const copy = new Uint8Array(data) // transferred: the caller keeps its bytes
    return new Promise((resolve, reject) => {
      const onMessage = (message: { id: number; result?: PdfText; unavailable?: string }) => {
        if (message.id !== id) return
        done()
        if (message.unavailable) reject(new ThreadsUnavailable(message.unavailable))
        else resolve(message.result!)
      }
      const onError = (error: Error) => {
        done()
        this.drop(reader)
        reject(error)
      }
      const done = () => {
        reader.worker.off('message', onMessage)
        reader.worker.off('error', onError)
      }
      reader.worker.on('message', onMessage)
      reader.worker.on('error', onError)
      reader.worker.postMessage({ id, data: copy, maxPages }, [copy.buffer])
    })
  }

  private async acquire(): Promise<Reader> {
    const resting = this.readers.find(r => !r.busy)
    if (resting) return this.take(resting)
    if (this.readers.length < THREADS) return this.take(this.spawn())
    return new Promise(resolve => this.waiting.push(resolve))
  }

  private take(reader: Reader): Reader {
    reader.busy = true
    clearTimeout(reader.idleTimer)
    return reader
  }

  private release(reader: Reader): void {
    if (!this.readers.includes(reader)) return
    const next = this.waiting.shift()
    if (next) return next(reader)
    reader.busy = false
    reader.idleTimer = setTimeout(() => this.drop(reader), IDLE_MS).unref()
  }

  private spawn(): Reader {
    const worker = new Worker(THREAD_SOURCE, { eval: true })
    worker.unref() // never what keeps the process alive
    const reader: Reader = { worker, busy: false }
    worker.on('error', error => logger.warn('PDF reading thread failed', { error: error.message }))
    this.readers.push(reader)
    return reader
  }

  private drop(reader: Reader): void {
    clearTimeout(reader.idleTimer)
    this.readers = this.readers.filter(r => r !== reader)
    void reader.worker.terminate().catch(() => {})
    const next = this.waiting.shift()
    if (next) next(this.take(this.spawn()))
  }
}

let readers: PdfReaders | undefined

/** Each page's text of a PDF, read off the main thread. */
export function readPdfText(data: Uint8Array, maxPages: number): Promise<PdfText> {
  readers ??= new PdfReaders()
  return readers.read(data, maxPages)
}
