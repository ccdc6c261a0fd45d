import { Document, HeadingLevel, Packer, Paragraph } from 'docx'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import PptxGenJS from 'pptxgenjs'
import { describe, expect, test } from 'vitest'
import { loadOriginal } from '@/lib/ingest/loaders'
import { withoutComments, withoutLinkTargets } from '@/lib/ingest/loaders/markdown'
import { drawingParagraphs } from '@/lib/ingest/loaders/pptx'
import { openCheckedZip } from '@/lib/ingest/loaders/zip-guard'
import { readHtml } from '@/lib/ingest/web/html'
import { drainQueue } from '@/lib/ingest/worker'
import { addFile, chunksOf, createStore, fullTextHits, reload } from './fixtures/ingest'

const PDF = 'application/pdf'
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

async function makePdf(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const text of pages) doc.addPage().drawText(text, { x: 50, y: 700, size: 12, font, lineHeight: 16 })
  return doc.save()
}

/** Syncs one file datasource and answers it with its chunks. */
async function sync(file: Parameters<typeof addFile>[1]) {
  const org = await createStore()
  const ds = await addFile(org, file)
  await drainQueue()
  return { org, ds: await reload(ds.id), chunks: await chunksOf(ds.id) }
}

describe('loaders: each of the eight file types reaches synched with its text', () => {
  test('PDF: text per page, with page numbers in the chunk metadata', async () => {
    const data = await makePdf(['The kettle warranty lasts two years.', 'Descale the kettle\nwith white vinegar monthly.', 'Page three mentions the toaster.'])
    const { org, ds, chunks } = await sync({ data, contentType: PDF, fileName: 'manual.pdf' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.metadata)).toEqual([{ page: 1 }, { page: 2 }, { page: 3 }])
    expect(chunks[0].text).toBe('The kettle warranty lasts two years.')
    // a sentence broken across lines of the page is joined again
    expect(chunks[1].text).toBe('Descale the kettle with white vinegar monthly.')
    expect(ds.nbChunks).toBe(3)
    expect(ds.nbTokens).toBe(chunks.reduce((n, c) => n + c.tokens, 0))
    expect(ds.textSize).toBeGreaterThan(80)
    expect(ds.lastSynch).not.toBeNull()
    expect(await fullTextHits(org.store.id, 'vinegar')).toEqual([ds.id])
  })

  test('DOCX: the document text, paragraph by paragraph', async () => {
    const doc = new Document({
      sections: [{ children: [new Paragraph({ text: 'Warranty terms', heading: HeadingLevel.HEADING_1 }), new Paragraph('The blender is covered for three years.')] }],
    })
    const { org, ds, chunks } = await sync({ data: new Uint8Array(await Packer.toBuffer(doc)), contentType: DOCX, fileName: 'terms.docx' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.text)).toEqual(['Warranty terms\n\nThe blender is covered for three years.'])
    expect(await fullTextHits(org.store.id, 'blender covered')).toEqual([ds.id])
  })

  test('PPTX: one section per slide, in order, with slide numbers', async () => {
    const pptx = new PptxGenJS()
    for (const text of ['Roadmap for the espresso machine', 'Launch in spring & ship by summer']) {
      pptx.addSlide().addText(text, { x: 1, y: 1, w: 8, h: 1 })
    }
    const data = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer
    const { org, ds, chunks } = await sync({ data: new Uint8Array(data), contentType: PPTX, fileName: 'deck.pptx' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => [c.text, c.metadata])).toEqual([
      ['Roadmap for the espresso machine', { slide: 1 }],
      ['Launch in spring & ship by summer', { slide: 2 }],
    ])
    expect(await fullTextHits(org.store.id, 'espresso')).toEqual([ds.id])
  })

  test('XLSX: one section per sheet, rows as "header: value" records', async () => {
    const workbook = new ExcelJS.Workbook()
    const prices = workbook.addWorksheet('Prices')
    prices.addRow(['Product', 'Price'])
    prices.addRow(['Kettle', 49.9])
    prices.addRow(['Toaster', { formula: 'B2*2', result: 99.8 }])
    workbook.addWorksheet('Stock').addRows([['Product', 'Units', 'Since'], ['Kettle', 12, new Date(Date.UTC(2026, 2, 1))]])
    const data = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer)
    const { org, ds, chunks } = await sync({ data, contentType: XLSX, fileName: 'catalog.xlsx' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => [c.text, c.metadata])).toEqual([
      ['Product: Kettle\nPrice: 49.9\n\nProduct: Toaster\nPrice: 99.8', { sheet: 'Prices' }],
      ['Product: Kettle\nUnits: 12\nSince: 2026-03-01', { sheet: 'Stock' }],
    ])
    expect(await fullTextHits(org.store.id, 'toaster')).toEqual([ds.id])
  })

  test('CSV: the first row names the fields of every record', async () => {
    const { org, ds, chunks } = await sync({ data: 'name,city\r\nAda,"London, UK"\r\nGrace,Arlington\r\n', contentType: 'text/csv', fileName: 'people.csv' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.text)).toEqual(['name: Ada\ncity: London, UK\n\nname: Grace\ncity: Arlington'])
    expect(await fullTextHits(org.store.id, 'Arlington')).toEqual([ds.id])
  })

  test('JSON: values with their key paths', async () => {
    const data = JSON.stringify([{ sku: 'K-1', specs: { watts: 1500, colors: ['red', 'steel'] } }, { sku: 'T-2', note: 'Toasts bagels' }])
    const { org, ds, chunks } = await sync({ data, contentType: 'application/json', fileName: 'products.json' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.text)).toEqual(['sku: K-1\nspecs.watts: 1500\nspecs.colors[0]: red\nspecs.colors[1]: steel\n\nsku: T-2\nnote: Toasts bagels'])
    expect(await fullTextHits(org.store.id, 'bagels')).toEqual([ds.id])
  })

  test('Markdown: kept as written, without front matter and link targets', async () => {
    const data = '---\ntitle: hidden\n---\n# Care guide\n\nClean the [grinder](https://example.com/g) weekly.\n'
    const { org, ds, chunks } = await sync({ data, contentType: 'text/markdown', fileName: 'care.md' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.text)).toEqual(['# Care guide\n\nClean the grinder weekly.'])
    expect(await fullTextHits(org.store.id, 'grinder')).toEqual([ds.id])
  })

  test('plain text, in its declared charset', async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('Caf'), 0xe9, ...new TextEncoder().encode(' au lait, served hot.')])
    const { org, ds, chunks } = await sync({ data: latin1, contentType: 'text/plain; charset=iso-8859-1', fileName: 'menu.txt' })
    expect(ds.status).toBe('synched')
    expect(chunks.map(c => c.text)).toEqual(['Café au lait, served hot.'])
    expect(await fullTextHits(org.store.id, 'lait')).toEqual([ds.id])
  })
})

describe('loaders: a file that cannot be read ends in error with a reason', () => {
  test('a corrupt PDF', async () => {
    const { ds, chunks } = await sync({ data: '%PDF-1.7\nthis is not really a PDF', contentType: PDF, fileName: 'broken.pdf' })
    expect(ds.status).toBe('error')
    expect(ds.errorMessage).toMatch(/^The PDF could not be read: /)
    expect(ds.attempts).toBe(1) // not retried: retrying cannot fix it
    expect(chunks).toEqual([])
  })

  test('an empty file, a file of blanks and a PDF without text', async () => {
    expect((await sync({ data: '', contentType: 'text/plain', fileName: 'empty.txt' })).ds.errorMessage).toBe('The file is empty')
    expect((await sync({ data: ' \n\n\t ', contentType: 'text/markdown', fileName: 'blank.md' })).ds.errorMessage).toBe('The file has no text')
    const { ds } = await sync({ data: await makePdf(['']), contentType: PDF, fileName: 'scan.pdf' })
    expect([ds.status, ds.errorMessage]).toEqual(['error', 'The file has no text'])
  })

  test('a damaged Office file, invalid JSON and binary data sent as text', async () => {
    const docx = await sync({ data: 'PK not a zip at all', contentType: DOCX, fileName: 'x.docx' })
    expect(docx.ds.errorMessage).toMatch(/^The DOCX file could not be read: /)
    const json = await sync({ data: '{"a": ', contentType: 'application/json', fileName: 'x.json' })
    expect(json.ds.errorMessage).toMatch(/^The JSON file could not be read: /)
    const binary = await sync({ data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]), contentType: 'text/plain', fileName: 'x.txt' })
    expect(binary.ds.errorMessage).toBe('The file is not text: it contains binary data')
    const other = await sync({ data: 'GIF89a', contentType: 'image/gif', fileName: 'x.gif' })
    expect(other.ds.errorMessage).toMatch(/^Files of type image\/gif cannot be read; accepted: /)
  })

  test('an Office file that expands beyond the bound is refused before any parser reads it', async () => {
    const zip = new JSZip()
    zip.file('word/document.xml', new Uint8Array(3 * 1024 * 1024)) // zeros: compresses to a few KB
    const data = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })
    expect(data.byteLength).toBeLessThan(64 * 1024)
    await expect(openCheckedZip(data, 'DOCX', { entries: 100, bytes: 1024 * 1024 })).rejects.toThrow('The DOCX file could not be read: it expands to more than 1 MB')
    await expect(openCheckedZip(data, 'DOCX', { entries: 100, bytes: 4 * 1024 * 1024 })).resolves.toBeDefined()
    const many = new JSZip()
    for (let i = 0; i < 20; i++) many.file(`part${i}.xml`, '<x/>')
    const manyData = await many.generateAsync({ type: 'uint8array' })
    await expect(openCheckedZip(manyData, 'PPTX', { entries: 10, bytes: 1024 * 1024 })).rejects.toThrow('it has 20 parts, more than the 10 allowed')
  })
})

// Regular expressions that try again from every unclosed opener read the rest of the text each time: quadratic, and
// on the web server's event loop. The inputs below took from 50 s to hours that way (each test's limit is 30 s).
describe('loaders: text that made a pattern quadratic is read at once, as before', () => {
  const oldMarkdown = (t: string) => t.replace(/<!--[\s\S]*?-->/g, '').replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
  const newMarkdown = (t: string) => withoutLinkTargets(withoutLinkTargets(withoutComments(t), '!['), '[')

  test('Markdown: comments and link and image targets go as before; 400 KB of unclosed "[", "![" and "<!--" load', async () => {
    for (const text of ['a [b](c) d', '![x](y.png) [](z) [[a](b)', '<!-- c --> ok <!--', 'x [a] (b) [c](d', '![a ![b](c) [d]](e)', '<!-->x-->y', '[a](b)(c)']) {
      expect(newMarkdown(text), text).toBe(oldMarkdown(text))
    }
    for (const text of ['['.repeat(400_000), '![a '.repeat(100_000), '<!-- a '.repeat(60_000), '[a](b '.repeat(70_000)]) {
      const [section] = await loadOriginal(new TextEncoder().encode(`# Notes\n\n${text}`), 'text/markdown')
      expect(section.text.length).toBe(text.length + 9)
    }
  })

  test('HTML: a table of 200,000 empty cells (a run of spaces) is read, with the text around it', async () => {
    const html = `<html><body><p>Before the table.</p><table><tr><td>first cell</td>${'<td></td>'.repeat(200_000)}<td>last cell</td></tr></table><p>After it.</p></body></html>`
    const { text } = await readHtml(Buffer.from(html), 'https://shop.example/', 'utf-8')
    expect(text).toBe('Before the table.\n\nfirst cell last cell\n\nAfter it.')
  })

  test('HTML: a charset label the decoder does not know (x-user-defined) is read as windows-1252, not refused', async () => {
    const page = Buffer.from('<html><head><meta charset="x-user-defined"><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>', 'latin1')
    expect(await readHtml(page, 'https://shop.example/', null)).toMatchObject({ title: 'Café', text: 'Crème brûlée' })
    expect(await readHtml(page, 'https://shop.example/', 'x-user-defined')).toMatchObject({ title: 'Café', text: 'Crème brûlée' })
  })

  test('HTML: a page of 4 MB is read in turns of the event loop, its text whole and tidied as a small page is', async () => {
    const paragraph = (i: number) => `<p>Paragraph ${i}\tholds  some \u00a0 spaced   words<br> and a line</p>\n   <div> \n</div>`
    const html = `<html><head><title>Long</title></head><body><main>${Array.from({ length: 50_000 }, (_, i) => paragraph(i)).join('')}</main></body></html>`
    expect(html.length).toBeGreaterThan(4_000_000)
    let turns = 0
    let reading = true
    const count = () => {
      turns++
      if (reading) setImmediate(count)
    }
    setImmediate(count)
    const page = await readHtml(Buffer.from(html), 'https://shop.example/', 'utf-8')
    reading = false
    // parsed 16 KB at a time, each piece in a turn of its own: a read at once let nothing else run until it ended
    expect(turns).toBeGreaterThan(200)
    expect(page.title).toBe('Long')
    const paragraphs = page.text.split('\n\n')
    expect(paragraphs).toHaveLength(50_000)
    paragraphs.forEach((text, i) => {
      if (text !== `Paragraph ${i} holds some spaced words\nand a line`) expect(text).toBe(`Paragraph ${i} holds some spaced words\nand a line`)
    })
  })

  test("PPTX: a slide's paragraphs as before; 150,000 unclosed <a:p> are read", () => {
    const old = (xml: string) => [...xml.matchAll(/<a:p>[\s\S]*?<\/a:p>|<a:p\s[\s\S]*?<\/a:p>/g)].map(m => m[0])
    for (const xml of ['<a:p><a:t>x</a:t></a:p><a:pPr/><a:p lvl="1"><a:t>y</a:t></a:p>', '<a:p>a<a:p>b</a:p></a:p>', '<a:p\n>c</a:p><a:p>']) {
      expect([...drawingParagraphs(xml)], xml).toEqual(old(xml))
    }
    expect([...drawingParagraphs(`<a:p><a:t>Slide</a:t></a:p>${'<a:p>'.repeat(150_000)}`)]).toEqual(['<a:p><a:t>Slide</a:t></a:p>'])
  })
})
