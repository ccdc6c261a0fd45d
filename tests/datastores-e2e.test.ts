// End to end through the HTTP handlers and the sync worker (drainQueue), hybrid mode with the fake embeddings server.
import { Document, Packer, Paragraph, TextRun } from 'docx'
import ExcelJS from 'exceljs'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import PptxGenJS from 'pptxgenjs'
import { describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasources from '@/app/api/datasources/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { getPrisma } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { call, expectErrorBody } from './helpers/http'
import { useFakeModel } from './helpers/fake-model'
import { createTenant, type TestTenant } from './helpers/tenants'

useFakeModel()

async function newDatastore(tenant: TestTenant) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Knowledge' } })
  return res.json as { id: string; searchMode: string }
}

async function upsertDocs(tenant: TestTenant, datastoreId: string, documents: unknown[]) {
  const res = await call(upsert.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId }, body: { documents } })
  expect(res.status).toBe(200)
  return res.json.ids as string[]
}

async function query(tenant: TestTenant, id: string, body: Record<string, unknown>) {
  const res = await call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers: tenant.headers, params: { id }, body })
  expect(res.status, res.text).toBe(200)
  return res.json as any[]
}

async function datasource(tenant: TestTenant, id: string) {
  return (await call(datasourceItem.GET, `/api/datasources/${id}`, { headers: tenant.headers, params: { id } })).json
}

describe('upsert, sync and query', () => {
  test('upsert then query finds the right fragment with its source, custom_id and datasource fields', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    expect(store.searchMode).toBe('hybrid')
    const ids = await upsertDocs(tenant, store.id, [
      { text: 'The kettle warranty lasts two years from the date of purchase.', name: 'Warranty', metadata: { source: 'https://shop.example/warranty', custom_id: 'shop-1', author: 'Ann' } },
      { text: 'Deliveries to Norway take five working days.', name: 'Shipping' },
      { text: 'Our stores open at nine on weekdays.' },
    ])
    expect(await drainQueue()).toBe(3)
    const ds = await datasource(tenant, ids[0])
    expect(ds).toMatchObject({ status: 'synched', nbChunks: 1, errorMessage: null })
    expect(ds.nbTokens).toBeGreaterThan(5)
    expect(ds.lastSynch).not.toBeNull()

    const fragments = await query(tenant, store.id, { query: 'How long is the kettle warranty?', topK: 2 })
    expect(fragments).toHaveLength(2)
    expect(fragments[0]).toMatchObject({
      text: 'The kettle warranty lasts two years from the date of purchase.',
      source: 'https://shop.example/warranty',
      datasource_id: ids[0],
      datasource_name: 'Warranty',
      custom_id: 'shop-1',
      metadata: { author: 'Ann' },
    })
    expect(fragments[0].score).toBeGreaterThan(fragments[1].score)
    // no metadata.source: the datasource's name
    const shipping = await query(tenant, store.id, { query: 'deliveries to Norway' })
    expect(shipping[0]).toMatchObject({ datasource_id: ids[1], source: 'Shipping', custom_id: null })
    // topK defaults to 5 and is an upper bound
    expect((await query(tenant, store.id, { query: 'the' + ' kettle stores deliveries' })).length).toBeLessThanOrEqual(5)
  })

  test('filters restrict the fragments to the given custom_ids or datasource_ids', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const ids = await upsertDocs(tenant, store.id, [
      { text: 'Refunds are possible within thirty days.', metadata: { custom_id: 'customer-a' } },
      { text: 'Refunds are possible within fourteen days.', metadata: { custom_id: 'customer-b' } },
      { text: 'Refunds need the original receipt.', metadata: { custom_id: 'customer-b' } },
    ])
    await drainQueue()
    const a = await query(tenant, store.id, { query: 'refunds', topK: 10, filters: { custom_ids: ['customer-a'] } })
    expect(a.map(f => f.datasource_id)).toEqual([ids[0]])
    const b = await query(tenant, store.id, { query: 'refunds', topK: 10, filters: { custom_ids: ['customer-b'] } })
    expect(new Set(b.map(f => f.datasource_id))).toEqual(new Set([ids[1], ids[2]]))
    const one = await query(tenant, store.id, { query: 'refunds', topK: 10, filters: { datasource_ids: [ids[2]] } })
    expect(one.map(f => f.datasource_id)).toEqual([ids[2]])
    const both = await query(tenant, store.id, { query: 'refunds', topK: 10, filters: { datasource_ids: [ids[0], ids[1]], custom_ids: ['customer-b'] } })
    expect(both.map(f => f.datasource_id)).toEqual([ids[1]])
  })

  test('re-upserting the same ids never duplicates chunks, and the new content replaces the old', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} explains the espresso machine descaling procedure in detail with many words.`).join('\n\n')
    const ids = await upsertDocs(tenant, store.id, [{ text: long }, { text: 'Kettle warranty is two years.' }])
    await drainQueue()
    const prisma = await getPrisma()
    const before = await prisma.chunk.count({ where: { datastoreId: store.id } })
    expect(before).toBeGreaterThan(2)
    await upsertDocs(tenant, store.id, [{ id: ids[0], text: long }, { id: ids[1], text: 'Kettle warranty is three years.' }])
    await drainQueue()
    expect(await prisma.chunk.count({ where: { datastoreId: store.id } })).toBe(before)
    expect(await prisma.datasource.count({ where: { datastoreId: store.id } })).toBe(2)
    const fragments = await query(tenant, store.id, { query: 'kettle warranty years', topK: 1 })
    expect(fragments[0].text).toBe('Kettle warranty is three years.')
  })

  test('a deleted datasource is no longer found', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const [id] = await upsertDocs(tenant, store.id, [{ text: 'Mercury is the closest planet to the sun.' }])
    await drainQueue()
    expect(await query(tenant, store.id, { query: 'mercury planet' })).toHaveLength(1)
    await call(datasourceItem.DELETE, '/x', { method: 'DELETE', headers: tenant.headers, params: { id } })
    expect(await query(tenant, store.id, { query: 'mercury planet' })).toEqual([])
  })
})

// One file per accepted type, each with a word found nowhere else
async function filesOfEveryType(): Promise<{ file: File; word: string }[]> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  pdf.addPage().drawText('The first page is about the harbour.', { x: 50, y: 700, font, size: 12 })
  pdf.addPage().drawText('The second page mentions zanzibar cloves.', { x: 50, y: 700, font, size: 12 })
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun('The contract mentions kilimanjaro hiking.')] })] }] }))
  const deck = new PptxGenJS()
  deck.addSlide().addText('Welcome slide', { x: 1, y: 1 })
  deck.addSlide().addText('Second slide about okavango wildlife', { x: 1, y: 1 })
  const pptx = (await deck.write({ outputType: 'nodebuffer' })) as Buffer
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Prices')
  sheet.addRow(['item', 'price'])
  sheet.addRow(['serengeti safari', 1200])
  const xlsx = (await workbook.xlsx.writeBuffer()) as ArrayBuffer
  const T = {
    pdf: 'application/pdf',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  }
  return [
    { file: new File([new Uint8Array(await pdf.save())], 'brochure.pdf', { type: T.pdf }), word: 'zanzibar' },
    { file: new File([new Uint8Array(docx)], 'contract.docx', { type: T.docx }), word: 'kilimanjaro' },
    { file: new File([new Uint8Array(pptx)], 'deck.pptx', { type: T.pptx }), word: 'okavango' },
    { file: new File([xlsx], 'prices.xlsx', { type: T.xlsx }), word: 'serengeti' },
    { file: new File(['name,city\nLena,timbuktu\n'], 'people.csv', { type: 'text/csv' }), word: 'timbuktu' },
    { file: new File([JSON.stringify({ destination: { name: 'patagonia glaciers' } })], 'trip.json', { type: 'application/json' }), word: 'patagonia' },
    { file: new File(['# Travel notes\n\nThe **galapagos** tortoises.'], 'notes.md', { type: 'text/markdown' }), word: 'galapagos' },
    { file: new File(['A plain note about madagascar lemurs.'], 'note.txt', { type: 'text/plain' }), word: 'madagascar' },
  ]
}

describe('files', () => {
  test('each of the eight file types, through both upload endpoints, reaches synched and its text is found', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const uploads: { id: string; word: string; via: string }[] = []
    for (const { file, word } of await filesOfEveryType()) {
      const form = new FormData()
      form.append('type', 'file')
      form.append('datastoreId', store.id)
      form.append('file', file)
      const viaDatasources = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body: form })
      expect(viaDatasources.status, file.name).toBe(201)
      uploads.push({ id: viaDatasources.json.id, word, via: `datasources ${file.name}` })
      const external = new FormData()
      external.append('file', file)
      external.append('custom_id', `ext-${word}`)
      // the same file again: a copy asked for (else it is answered as a duplicate of the first)
      const viaExternal = await call(externalUpload.POST, '/x?allowDuplicates=true', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: external })
      expect(viaExternal.status, file.name).toBe(201)
      uploads.push({ id: viaExternal.json.id, word, via: `external ${file.name}` })
    }
    expect(await drainQueue({ concurrency: 2 })).toBe(16)
    for (const upload of uploads) {
      const ds = await datasource(tenant, upload.id)
      expect(ds.status, `${upload.via}: ${ds.errorMessage}`).toBe('synched')
      expect(ds.nbChunks, upload.via).toBeGreaterThan(0)
    }
    for (const { word } of await filesOfEveryType()) {
      const fragments = await query(tenant, store.id, { query: word, topK: 2 })
      const expected = uploads.filter(u => u.word === word).map(u => u.id)
      expect(new Set(fragments.map(f => f.datasource_id)), word).toEqual(new Set(expected))
      expect(fragments[0].text.toLowerCase()).toContain(word)
      expect(fragments.map(f => f.custom_id)).toContain(`ext-${word}`)
    }
    // the PDF's fragment carries its page number; the file's name is its source
    const [pdfFragment] = await query(tenant, store.id, { query: 'zanzibar cloves', topK: 1 })
    expect(pdfFragment.source).toBe('brochure.pdf')
    expect(JSON.stringify(pdfFragment.metadata)).toMatch(/"page(Number)?":2/)
  })

  test('a corrupt PDF is accepted (201) and ends in error with a readable reason; so does an empty file', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const ids: string[] = []
    for (const file of [
      new File(['%PDF-1.7\nthis is not really a pdf at all'], 'broken.pdf', { type: 'application/pdf' }),
      new File([], 'empty.txt', { type: 'text/plain' }),
    ]) {
      const form = new FormData()
      form.append('file', file)
      const res = await call(externalUpload.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: form })
      expect(res.status).toBe(201)
      expect(res.json.status).toBe('pending')
      ids.push(res.json.id)
    }
    await drainQueue()
    for (const id of ids) {
      const ds = await datasource(tenant, id)
      expect(ds.status).toBe('error')
      expect(ds.errorMessage).toMatch(/\w+ \w+/)
      expect(ds.nbChunks).toBe(0)
    }
    expect(await query(tenant, store.id, { query: 'pdf' })).toEqual([])
  })

  test('the datastore counts its datasources and chunks once synched', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    await upsertDocs(tenant, store.id, [{ text: 'one two three' }, { text: 'four five six' }])
    await drainQueue()
    const res = await call(datastoreItem.GET, '/x', { headers: tenant.headers, params: { id: store.id } })
    expect(res.json).toMatchObject({ nbDatasources: 2, nbChunks: 2 })
  })
})

describe('tenancy', () => {
  test("another organization's query answers 404 and never returns its fragments", async () => {
    const owner = await createTenant()
    const stranger = await createTenant()
    const store = await newDatastore(owner)
    await upsertDocs(owner, store.id, [{ text: 'The secret launch date is in March.' }])
    await drainQueue()
    const res = await call(datastoreQuery.POST, '/x', { method: 'POST', headers: stranger.headers, params: { id: store.id }, body: { query: 'secret launch date' } })
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
    expect(res.text).not.toContain('March')
  })
})
