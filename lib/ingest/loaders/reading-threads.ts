import { Worker } from 'node:worker_threads'
import { logger } from '@/lib/logger'

/** What reading a PDF's text layer gave: each page's text, or why not. */
export type PdfText =
  | { kind: 'pages'; texts: string[] }
  | { kind: 'too_many_pages'; pages: number }
  | { kind: 'unreadable'; name: string; message: string }

/** What reading a DOCX's text gave: its paragraphs' text, or why not. */
export type DocxText = { kind: 'text'; text: string } | { kind: 'unreadable'; name: string; message: string }

/** A worksheet's rows: what each cell shows, a date as itself (formatted by the caller). */
export interface Sheet {
  name: string
  rows: (string | Date)[][]
}

/** What reading an XLSX gave: its worksheets, or why not. */
export type XlsxSheets = { kind: 'sheets'; sheets: Sheet[] } | { kind: 'unreadable'; name: string; message: string }

/** The formats read in these threads, with what each is given and gives back. */
interface Tasks {
  pdf: { options: { maxPages: number }; result: PdfText }
  docx: { options: Record<string, never>; result: DocxText }
  xlsx: { options: Record<string, never>; result: XlsxSheets }
}
type Task = keyof Tasks

// The thread's own code, plain JavaScript evaluated by node:worker_threads (a file beside this one would not survive
// Next's bundling). `unpdf`, `mammoth` and `exceljs` are resolved from the working directory, the app's root, as
// `npm start` and the tests run. The XLSX reader's cellShown has a twin in xlsx.ts, for reading in-process.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads')
const unreadable = error => ({ kind: 'unreadable', name: String(error && error.name || 'Error'), message: String(error && error.message || error) })
let unpdf, mammoth, ExcelJS
const MODULES = { pdf: async () => (unpdf ??= await import('unpdf')), docx: () => (mammoth ??= require('mammoth')), xlsx: () => (ExcelJS ??= require('exceljs')) }
function cellShown(cell) {
  const value = cell.value
  if (value instanceof Date) return value
  if (value && typeof value === 'object' && 'result' in value && value.result instanceof Date) return value.result
  try {
    return cell.text ?? ''
  } catch {
    return String(value ?? '')
  }
}
const readers = {
  async pdf(data, { maxPages }) {
    let pdf
    try {
      pdf = await unpdf.getDocumentProxy(data, { verbosity: 0 })
      if (pdf.numPages > maxPages) return { kind: 'too_many_pages', pages: pdf.numPages }
      const { text } = await unpdf.extractText(pdf, { mergePages: false })
      return { kind: 'pages', texts: text }
    } catch (error) {
      return unreadable(error)
    } finally {
      if (pdf) await pdf.destroy().catch(() => {})
    }
  },
  async docx(data) {
    try {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) })
      return { kind: 'text', text: value }
    } catch (error) {
      return unreadable(error)
    }
  },
  async xlsx(data) {
    try {
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      const sheets = []
      workbook.eachSheet(sheet => {
        const rows = []
        sheet.eachRow({ includeEmpty: false }, row => {
          const cells = []
          for (let c = 1; c <= row.cellCount; c++) cells.push(cellShown(row.getCell(c)))
          rows.push(cells)
        })
        sheets.push({ name: sheet.name, rows })
      })
      return { kind: 'sheets', sheets }
    } catch (error) {
      return unreadable(error)
    }
  },
}
parentPort.on('message', async ({ id, task, data, options }) => {
  try {
    await MODULES[task]()
  } catch (error) {
    return parentPort.postMessage({ id, unavailable: String(error && error.message || error) })
  }
  parentPort.postMessage({ id, result: await readers[task](data, options) })
})
`

// A resting thread (PDF.js, mammoth and what the last file left in its heap) is let go after this long without work
const IDLE_MS = 30_000
// Two threads: two large files read at once (the worker's two lanes) without a third waiting behind them
const THREADS = 2

interface Reader {
  worker: Worker
  busy: boolean
  idleTimer?: NodeJS.Timeout
}

/** Raised when threads cannot run here (unpdf, mammoth or exceljs not found from the working directory): read in-process instead. */
export class ThreadsUnavailable extends Error {}

/**
 * Files read in worker threads, so that a large one keeps the web server's event loop free: PDF.js takes about 5 ms
 * of CPU a page and yields rarely (two 5,000-page files read in-process delayed every request by seconds), mammoth
 * reads a DOCX's XML at once (2.1 s for one of 7 MB of text, session 28), exceljs a sheet's in stretches of up to half
 * a second (60,000 rows).
 */
class FileReaders {
  private readers: Reader[] = []
  private waiting: ((reader: Reader) => void)[] = []
  private nextId = 0

  async read<T extends Task>(task: T, data: Uint8Array, options: Tasks[T]['options']): Promise<Tasks[T]['result']> {
    const reader = await this.acquire()
    try {
      return await this.ask(reader, task, data, options)
    } finally {
      this.release(reader)
    }
  }

  private ask<T extends Task>(reader: Reader, task: T, data: Uint8Array, options: Tasks[T]['options']): Promise<Tasks[T]['result']> {
    const id = this.nextId++
    const copy = new Uint8Array(data) // transferred: the caller keeps its bytes
    return new Promise((resolve, reject) => {
      const onMessage = (message: { id: number; result?: Tasks[T]['result']; unavailable?: string }) => {
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
      reader.worker.postMessage({ id, task, data: copy, options }, [copy.buffer])
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
    worker.on('error', error => logger.warn('file reading thread failed', { error: error.message }))
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

let readers: FileReaders | undefined

/** Each page's text of a PDF, read off the main thread. */
export function readPdfText(data: Uint8Array, maxPages: number): Promise<PdfText> {
  readers ??= new FileReaders()
  return readers.read('pdf', data, { maxPages })
}

/** A DOCX's text (mammoth's raw text: paragraphs separated by blank lines), read off the main thread. */
export function readDocxText(data: Uint8Array): Promise<DocxText> {
  readers ??= new FileReaders()
  return readers.read('docx', data, {})
}

/** An XLSX's worksheets, read off the main thread. */
export function readXlsxSheets(data: Uint8Array): Promise<XlsxSheets> {
  readers ??= new FileReaders()
  return readers.read('xlsx', data, {})
}
