// Text in images and scanned PDFs (issue 26): uploaded through the API, recognised by the sync worker, found by a query.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasources from '@/app/api/datasources/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastores from '@/app/api/datastores/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { getPrisma } from '@/lib/db/client'
import { loadOriginal } from '@/lib/ingest/loaders'
import { imageSize } from '@/lib/ingest/loaders/image-size'
import { ocrLanguageFor, recognitionPool } from '@/lib/ingest/loaders/ocr'
import { drainQueue } from '@/lib/ingest/worker'
import { chunksOf } from './fixtures/ingest'
import { call } from './helpers/http'
import { closeScanner, pdfOf, scanOf } from './helpers/scans'
import { createTenant, type TestTenant } from './helpers/tenants'
import { encodeGreyTiff } from './helpers/tiff'

const NOTICE = ['Kettle notice', 'Descale the Zephyrine kettle every month with citric acid.', 'Warranty claims need the original receipt.']
const MEMO = ['Delivery memo', 'The marzipan shipment leaves the Rotterdam warehouse on Tuesday.']
const ZOO = ['Feeding rota', 'The quokka enclosure is cleaned before the afternoon feeding.']

let png: Uint8Array
let jpeg: Uint8Array
let zoo: Uint8Array
beforeAll(async () => {
  ;[png, jpeg, zoo] = await Promise.all([scanOf(NOTICE), scanOf(MEMO, 'jpeg'), scanOf(ZOO)])
  await closeScanner()
}, 60_000)
afterAll(async () => {
  await recognitionPool().close()
})
afterEach(() => {
  delete process.env.OCR_PAGE_TIMEOUT_SECONDS
})

async function newDatastore(tenant: TestTenant, language?: string) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Scans', ...(language ? { language } : {}) } })
  expect(res.status, res.text).toBe(201)
  return res.json as { id: string }
}

async function upload(tenant: TestTenant, datastoreId: string, data: Uint8Array, name: string, type: string) {
  const form = new FormData()
  form.append('type', 'file')
  form.append('datastoreId', datastoreId)
  form.append('file', new File([new Uint8Array(data)], name, { type }))
  const res = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body: form })
  expect(res.status, res.text).toBe(201)
  return res.json.id as string
}

async function datasource(tenant: TestTenant, id: string) {
  return (await call(datasourceItem.GET, `/api/datasources/${id}`, { headers: tenant.headers, params: { id } })).json
}

async function ask(tenant: TestTenant, datastoreId: string, query: string) {
  const res = await call(datastoreQuery.POST, `/api/datastores/${datastoreId}/query`, { method: 'POST', headers: tenant.headers, params: { id: datastoreId }, body: { query, topK: 3 } })
  expect(res.status, res.text).toBe(200)
  return res.json as { datasource_id: string; text: string; metadata: Record<string, unknown> }[]
}

describe('scanned pages are read by text recognition', () => {
  test('a scanned page uploaded as PNG ends synched, and a question about its words finds it', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const id = await upload(tenant, store.id, png, 'notice.png', 'image/png')
    await drainQueue()
    const ds = await datasource(tenant, id)
    expect(ds, ds.errorMessage).toMatchObject({ status: 'synched', ocrPages: { done: 1, total: 1 } })
    const [hit] = await ask(tenant, store.id, 'How often is the Zephyrine kettle descaled?')
    expect(hit.datasource_id).toBe(id)
    expect(hit.text).toContain('Descale the Zephyrine kettle every month with citric acid.')
    expect(hit.metadata).toMatchObject({ ocr: true })
  })

  test('a photo uploaded as JPEG (through the external upload endpoint) ends synched and is found', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const form = new FormData()
    form.append('file', new File([new Uint8Array(jpeg)], 'memo.jpg', { type: 'image/jpeg' }))
    const res = await call(externalUpload.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: form })
    expect(res.status, res.text).toBe(201)
    await drainQueue()
    expect((await datasource(tenant, res.json.id)).status).toBe('synched')
    const [hit] = await ask(tenant, store.id, 'marzipan shipment Rotterdam')
    expect(hit).toMatchObject({ datasource_id: res.json.id })
    expect(hit.text).toContain('marzipan shipment leaves the Rotterdam warehouse')
  })

  test('an image-only page of a PDF is recognised and keeps its page number, beside a page with a text layer', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const pdf = await pdfOf([{ text: 'Opening hours of the zoo: nine to five, every day of the week.' }, { scan: zoo }])
    const id = await upload(tenant, store.id, pdf, 'zoo.pdf', 'application/pdf')
    await drainQueue()
    const ds = await datasource(tenant, id)
    expect(ds, ds.errorMessage).toMatchObject({ status: 'synched', ocrPages: { done: 1, total: 1 } })
    const chunks = await chunksOf(id)
    expect(chunks.map(c => c.metadata)).toEqual([{ page: 1 }, { page: 2, ocr: true }])
    const [hit] = await ask(tenant, store.id, 'When is the quokka enclosure cleaned?')
    expect(hit).toMatchObject({ datasource_id: id, metadata: { page: 2, ocr: true } })
    expect(hit.text).toContain('The quokka enclosure is cleaned before the afternoon feeding.')
  })

  test('a corrupt image ends in error with the reason, at once (not retried)', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const truncated = await upload(tenant, store.id, png.subarray(0, 200), 'torn.png', 'image/png')
    const notAnImage = await upload(tenant, store.id, new TextEncoder().encode('this is no picture at all'), 'fake.jpg', 'image/jpeg')
    await drainQueue()
    expect(await datasource(tenant, truncated)).toMatchObject({ status: 'error', errorMessage: 'The image could not be read: the image data is damaged or cannot be decoded' })
    expect(await datasource(tenant, notAnImage)).toMatchObject({
      status: 'error',
      errorMessage: 'The image could not be read: it is not a PNG, JPEG, WebP or TIFF image (the file is damaged or of another type)',
    })
    const prisma = await getPrisma()
    expect((await prisma.datasource.findMany({ where: { id: { in: [truncated, notAnImage] } } })).map(d => d.attempts)).toEqual([1, 1])
  })
})

describe('the recognition step', () => {
  test('a page that takes longer than OCR_PAGE_TIMEOUT_SECONDS ends the file in error naming the page', async () => {
    process.env.OCR_PAGE_TIMEOUT_SECONDS = '1'
    // a long, dense page: several seconds of recognition on any machine
    const long = await scanOf(['Long ledger', ...Array.from({ length: 60 }, (_, i) => `Entry ${i}: ${MEMO[1]} ${NOTICE[1]} ${ZOO[1]}`)])
    await closeScanner()
    const pdf = await pdfOf([{ text: 'The first page has a text layer long enough.' }, { scan: long }])
    await expect(loadOriginal(pdf, 'application/pdf', { ocr: worker() })).rejects.toThrow(
      'Page 2 could not be read: recognition took longer than 1 s (OCR_PAGE_TIMEOUT_SECONDS)',
    )
  })

  const worker = () => ({ language: async () => 'english' })

  test('TIFF (as scanners write it) and WebP are read too', async () => {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas')
    const image = await loadImage(Buffer.from(png))
    const canvas = createCanvas(image.width, image.height)
    const context = canvas.getContext('2d')
    context.drawImage(image, 0, 0)
    const tiff = encodeGreyTiff(context.getImageData(0, 0, image.width, image.height).data, image.width, image.height)
    const webp = new Uint8Array(await canvas.encode('webp', 90))
    for (const [data, type] of [[tiff, 'image/tiff'], [webp, 'image/webp']] as const) {
      const [section] = await loadOriginal(data, type, { ocr: worker() })
      expect(section.text, type).toContain('Warranty claims need the original receipt.')
    }
  })

  test('the size of every image format is read from its header, and an image of too many pixels is refused before decoding', async () => {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas')
    const image = await loadImage(Buffer.from(png))
    const canvas = createCanvas(image.width, image.height)
    canvas.getContext('2d').drawImage(image, 0, 0)
    const pixels = canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data
    const expected = { width: image.width, height: image.height }
    expect(imageSize('image/png', png)).toEqual(expected)
    expect(imageSize('image/jpeg', new Uint8Array(await canvas.encode('jpeg', 80)))).toEqual(expected)
    expect(imageSize('image/webp', new Uint8Array(await canvas.encode('webp', 80)))).toEqual(expected)
    expect(imageSize('image/webp', new Uint8Array(await canvas.encode('webp', 100)))).toEqual(expected)
    expect(imageSize('image/tiff', encodeGreyTiff(pixels, image.width, image.height))).toEqual(expected)
    // a blank poster's PNG: tiny on disk, gigabytes decoded
    const bomb = new Uint8Array(png)
    new DataView(bomb.buffer).setUint32(16, 30_000)
    new DataView(bomb.buffer).setUint32(20, 30_000)
    await expect(loadOriginal(bomb, 'image/png', { ocr: worker() })).rejects.toThrow('The image is 30000 × 30000 pixels; at most 60 million pixels are read')
  })

  test('reading an original on a request path never runs recognition: a scanned page is empty there', async () => {
    const sections = await loadOriginal(await pdfOf([{ text: 'A page with text.' }, { scan: png }]), 'application/pdf')
    expect(sections.map(s => s.text)).toEqual(['A page with text.', ''])
    await expect(loadOriginal(png, 'image/png')).rejects.toThrow('recognised when the datasource is synchronised')
  })

  test("the datastore's language chooses the trained data where its package is installed, English otherwise", () => {
    expect(ocrLanguageFor('french')).toBe('fra')
    expect(ocrLanguageFor('german')).toBe('deu')
    expect(ocrLanguageFor('english')).toBe('eng')
    expect(ocrLanguageFor('simple')).toBe('eng')
    expect(ocrLanguageFor('yiddish')).toBe('eng')
  })

  test('progress is reported page by page, done of total', async () => {
    const seen: [number, number][] = []
    const pdf = await pdfOf([{ scan: png }, { text: 'Text layer page with enough characters.' }, { scan: zoo }])
    const sections = await loadOriginal(pdf, 'application/pdf', { ocr: { ...worker(), onProgress: (done, total) => void seen.push([done, total]) } })
    expect(seen).toEqual([[0, 2], [1, 2], [2, 2]])
    expect(sections.map(s => s.metadata)).toEqual([{ page: 1, ocr: true }, { page: 2 }, { page: 3, ocr: true }])
  })
})
