// Issue 22, point 10: two large PDFs read at once used to hold the event loop for seconds (PDF.js in-process, ~5 ms of
// CPU a page between rare yields), so /api/health and every request waited. Their text layers are read in worker
// threads now (lib/ingest/loaders/reading-threads.ts): the loop stays free while the worker synchs them. So are DOCX
// and XLSX files since session 28 (mammoth read one of 7 MB of text in one 2.1 s stretch; exceljs held the loop up to
// half a second at a time on 60,000 rows).
import { threadId } from 'node:worker_threads'
import { Document, Packer, Paragraph } from 'docx'
import ExcelJS from 'exceljs'
import mammoth from 'mammoth'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { loadOriginal } from '@/lib/ingest/loaders'
import { readPdfText } from '@/lib/ingest/loaders/reading-threads'
import { drainQueue } from '@/lib/ingest/worker'
import { addFile, createStore, reload } from '../fixtures/ingest'
import { loopWatch } from '../helpers/event-loop'

const PAGES = 1_500
// In-process, PDF.js held the loop for the whole of both files (23 s for two of 5,000 pages at load 7; ~2 s for two of
// 1,500 quiet); in threads what is left is taking the pages' texts back (tens of ms)
const MAX_LOOP_DELAY_MS = 1_000

async function textPdf(pages: number, label: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const words = 'the kettle descaling guide says citric acid once a month keeps the heating element clean and quiet'.split(' ')
  for (let p = 0; p < pages; p++) {
    const text = Array.from({ length: 180 }, (_, i) => words[(i + p) % words.length]).join(' ')
    doc.addPage([595, 842]).drawText(`${label} page ${p + 1}. ${text}`, { x: 50, y: 790, size: 10, font, maxWidth: 495, lineHeight: 13 })
  }
  return doc.save()
}

let big: Uint8Array[]
beforeAll(async () => {
  big = [await textPdf(PAGES, 'Alpha'), await textPdf(PAGES, 'Beta')]
}, 120_000)

describe('PDFs are read off the main thread', () => {
  test("a PDF's pages are read by a worker thread, not this one", async () => {
    const read = await readPdfText(await textPdf(2, 'Gamma'), 5_000)
    expect(read).toMatchObject({ kind: 'pages' })
    expect(read.kind === 'pages' && read.texts[1]).toContain('Gamma page 2.')
    expect(threadId).toBe(0) // this test runs on a main thread; the reading thread's PDF.js never loaded here
  })

  test('the caller keeps its bytes: the thread gets a copy', async () => {
    const pdf = await textPdf(1, 'Delta')
    const before = pdf.byteLength
    await loadOriginal(pdf, 'application/pdf')
    expect(pdf.byteLength).toBe(before)
    expect((await loadOriginal(pdf, 'application/pdf'))[0].text).toContain('Delta page 1.')
  })

  test('a damaged PDF is still a readable reason, from the thread', async () => {
    await expect(loadOriginal(new TextEncoder().encode('%PDF-1.7 not really'), 'application/pdf')).rejects.toThrow(/The PDF could not be read/)
  })

  test(`reading two ${PAGES.toLocaleString('en')}-page PDFs at once leaves the event loop free`, async () => {
    const held = loopWatch()
    const read = await Promise.all(big.map(pdf => loadOriginal(pdf, 'application/pdf', { ocr: { language: async () => 'en' } })))
    const longest = held.stop()
    expect(read.map(sections => sections.length)).toEqual([PAGES, PAGES])
    expect(read[1][PAGES - 1]).toMatchObject({ metadata: { page: PAGES } })
    expect(longest, 'the longest the event loop was held, ms').toBeLessThan(MAX_LOOP_DELAY_MS)
  }, 120_000)

  test('and the worker synchs both, every page in a chunk', async () => {
    const org = await createStore()
    const files = await Promise.all(big.map((data, i) => addFile(org, { data, contentType: 'application/pdf', fileName: `manual-${i}.pdf` })))
    await drainQueue({ concurrency: 2 })
    for (const file of files) {
      const stored = await reload(file.id)
      expect(stored).toMatchObject({ status: 'synched' })
      expect(stored.nbChunks).toBeGreaterThanOrEqual(PAGES)
    }
  }, 300_000)
})

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

async function docxOf(paragraphs: string[]): Promise<Uint8Array> {
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: paragraphs.map(text => new Paragraph(text)) }] })))
}

describe('DOCX files are read off the main thread', () => {
  test("a DOCX's text comes from the reading thread: this thread's mammoth is never called", async () => {
    const extract = vi.spyOn(mammoth, 'extractRawText')
    try {
      const [section] = await loadOriginal(await docxOf(['Descaling the kettle', 'Use citric acid once a month.']), DOCX)
      expect(section.text.trim()).toBe('Descaling the kettle\n\nUse citric acid once a month.')
      expect(extract).not.toHaveBeenCalled()
    } finally {
      extract.mockRestore()
    }
  })

  test('a damaged DOCX is still a readable reason, from the thread', async () => {
    const zip = await docxOf(['x'])
    const JSZip = (await import('jszip')).default
    const archive = await JSZip.loadAsync(zip)
    archive.file('word/document.xml', '<w:document><w:body><w:p>')
    const damaged = await archive.generateAsync({ type: 'uint8array' })
    await expect(loadOriginal(damaged, DOCX)).rejects.toThrow(/The DOCX file could not be read/)
  })

  test('a DOCX of 30,000 paragraphs leaves the event loop free while it is read', async () => {
    const words = 'the kettle descaling guide says citric acid once a month keeps the heating element clean and quiet'
    const docx = await docxOf(Array.from({ length: 30_000 }, (_, i) => `Paragraph ${i}: ${words}.`))
    const held = loopWatch()
    const [section] = await loadOriginal(docx, DOCX)
    const longest = held.stop()
    expect(section.text.trim().split('\n\n')).toHaveLength(30_000)
    expect(longest, 'the longest the event loop was held, ms').toBeLessThan(MAX_LOOP_DELAY_MS)
  }, 120_000)
})

describe('XLSX files are read off the main thread', () => {
  test("a worksheet's rows come from the reading thread, dates as ISO 8601: this thread's exceljs never reads", async () => {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Orders')
    sheet.addRow(['Order', 'Shipped', 'Total'])
    sheet.addRow(['A-1', new Date(Date.UTC(2026, 10, 29)), { formula: '2*21', result: 42 }])
    const file = new Uint8Array(await workbook.xlsx.writeBuffer())
    const reads = vi.spyOn(ExcelJS.Workbook.prototype, 'xlsx', 'get')
    try {
      const sections = await loadOriginal(file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      expect(sections).toEqual([{ text: 'Order: A-1\nShipped: 2026-11-29\nTotal: 42', metadata: { sheet: 'Orders' } }])
      expect(reads).not.toHaveBeenCalled()
    } finally {
      reads.mockRestore()
    }
  })
})
