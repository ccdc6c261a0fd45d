// Content you can see (issue 15): a datasource's chunks with their page, its extracted text and its original, only to
// its own organization; bulk re-sync and delete, "retry all failed"; a site's row sums its pages, which are listed
// under it; a web page added without a name is named by its title (defect 8).
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterEach, describe, expect, test } from 'vitest'
import * as chunksRoute from '@/app/api/datasources/[id]/chunks/route'
import * as originalRoute from '@/app/api/datasources/[id]/original/route'
import * as textRoute from '@/app/api/datasources/[id]/text/route'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasources from '@/app/api/datasources/route'
import * as bulkRoute from '@/app/api/datastores/[id]/datasources/bulk/route'
import * as listRoute from '@/app/api/datastores/[id]/datasources/route'
import * as datastores from '@/app/api/datastores/route'
import { drainQueue } from '@/lib/ingest/worker'
import { page, serveSite, sitemap, type TestSite } from './fixtures/web-server'
import type { RouteHandler } from '@/lib/api/endpoint'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

const sites: TestSite[] = []
afterEach(async () => {
  for (const s of sites.splice(0)) await s.close()
  delete process.env.CRAWLER_ALLOW_PRIVATE_HOSTS
})

async function newDatastore(tenant: TestTenant) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Manuals' } })
  return res.json as { id: string }
}

async function twoPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (const line of ['Page one: unpack the Aurora kettle and rinse it.', 'Page two: descale it every four weeks.']) {
    pdf.addPage([595, 842]).drawText(line, { x: 50, y: 780, size: 12, font })
  }
  return pdf.save()
}

async function uploadFile(tenant: TestTenant, datastoreId: string, name: string, data: Uint8Array | string, type: string) {
  const form = new FormData()
  form.append('type', 'file')
  form.append('datastoreId', datastoreId)
  form.append('file', new File([data as BlobPart], name, { type }))
  const res = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body: form })
  expect(res.status, res.text).toBe(201)
  return res.json as { id: string }
}

const get = (handler: RouteHandler, tenant: TestTenant, id: string, query = '') =>
  call(handler, `/api/datasources/${id}/x${query}`, { headers: tenant.headers, params: { id } })

describe('a datasource opens to what it holds', () => {
  test('its chunks carry their page; its text is read by page; its original downloads as uploaded; another tenant gets 404', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const bytes = await twoPagePdf()
    const ds = await uploadFile(tenant, store.id, 'Aurora kettle – user manual.pdf', bytes, 'application/pdf')
    await drainQueue()

    const chunks = await get(chunksRoute.GET, tenant, ds.id)
    expect(chunks.status).toBe(200)
    expect(chunks.json.total).toBeGreaterThanOrEqual(2)
    expect(chunks.json.items.map((c: any) => c.metadata.page)).toEqual([1, 2])
    expect(chunks.json.items[1].text).toContain('descale it every four weeks')
    const firstOnly = await get(chunksRoute.GET, tenant, ds.id, '?limit=1')
    expect(firstOnly.json.nextAfter).toBe(firstOnly.json.items[0].position)
    const rest = await get(chunksRoute.GET, tenant, ds.id, `?limit=1&after=${firstOnly.json.nextAfter}`)
    expect(rest.json.items[0].metadata.page).toBe(2)

    const text = await get(textRoute.GET, tenant, ds.id)
    expect(text.json.sections.map((s: any) => s.metadata.page)).toEqual([1, 2])

    const original = await get(originalRoute.GET, tenant, ds.id)
    expect(original.status).toBe(200)
    expect(original.headers.get('content-type')).toBe('application/pdf')
    expect(original.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Aurora kettle – user manual.pdf')}`)
    const download = await originalRoute.GET(new Request(`http://localhost/api/datasources/${ds.id}/original`, { headers: tenant.headers }), { params: Promise.resolve({ id: ds.id }) })
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(new Uint8Array(bytes))

    const stranger = await createTenant()
    for (const handler of [chunksRoute.GET, textRoute.GET, originalRoute.GET]) {
      const res = await get(handler, stranger, ds.id)
      expect(res.status).toBe(404)
      expect(res.json.error.code).toBe('not_found')
    }
  })
})

describe('bulk actions', () => {
  test('"retry all failed" queues only the failed ones; bulk delete removes the selected ones', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const good = await uploadFile(tenant, store.id, 'good.md', '# Shipping\n\nOrders ship in two days.', 'text/markdown')
    const broken = await uploadFile(tenant, store.id, 'broken.pdf', '%PDF-1.7 not really a PDF', 'application/pdf')
    await drainQueue()
    const bulk = (body: unknown) => call(bulkRoute.POST, '/x', { method: 'POST', headers: tenant.headers, params: { id: store.id }, body })

    const retried = await bulk({ action: 'synch', status: ['error'] })
    expect(retried.json).toEqual({ action: 'synch', ids: [broken.id] })
    const after = await call(datasourceItem.GET, '/x', { headers: tenant.headers, params: { id: broken.id } })
    expect(after.json.status).toBe('pending')
    expect((await call(datasourceItem.GET, '/x', { headers: tenant.headers, params: { id: good.id } })).json.status).toBe('synched')

    expect((await bulk({ action: 'delete', ids: [good.id, broken.id, 'not-an-id-of-this-store'] })).json.ids.sort()).toEqual([good.id, broken.id].sort())
    const list = await call(listRoute.GET, `/api/datastores/${store.id}/datasources`, { headers: tenant.headers, params: { id: store.id } })
    expect(list.json.items).toEqual([])
    expect((await bulk({ action: 'synch' })).status).toBe(400)
  })
})

describe('web sites and pages', () => {
  test("a site's row sums its pages' chunks and tokens; topLevel lists it without its pages; a page added alone is named by its title", async () => {
    process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
    const s = await serveSite({})
    sites.push(s)
    Object.assign(s.routes, {
      '/sitemap.xml': sitemap([`${s.url}/docs/warranty`, `${s.url}/docs/descaling`]),
      '/docs/warranty': page('Warranty', '<p>The Aurora kettle has a two-year warranty.</p>'),
      '/docs/descaling': page('Descaling', '<p>Descale every four weeks.</p>'),
      '/support/contact': page('Contact the support team', '<p>Write to support@example.com.</p>'),
    })
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const create = (body: unknown) => call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body })
    const site = (await create({ datastoreId: store.id, type: 'web_site', config: { sitemap: `${s.url}/sitemap.xml` } })).json
    const alone = (await create({ datastoreId: store.id, type: 'web_page', config: { source_url: `${s.url}/support/contact` } })).json
    await drainQueue()

    const list = (query: string) => call(listRoute.GET, `/api/datastores/${store.id}/datasources${query}`, { headers: tenant.headers, params: { id: store.id } })
    const top = (await list('?topLevel=true')).json
    expect(top.items.map((d: any) => d.id).sort()).toEqual([site.id, alone.id].sort())
    const siteRow = top.items.find((d: any) => d.id === site.id)
    const pages = (await list(`?groupId=${site.id}`)).json.items
    expect(pages).toHaveLength(2)
    expect(siteRow.nbChildren).toBe(2)
    expect(siteRow.nbChunks).toBe(pages.reduce((n: number, p: any) => n + p.nbChunks, 0))
    expect(siteRow.nbTokens).toBe(pages.reduce((n: number, p: any) => n + p.nbTokens, 0))
    expect(siteRow.nbChunks).toBeGreaterThan(0)
    expect(top.items.find((d: any) => d.id === alone.id).name).toBe('Contact the support team')
    expect((await list('')).json.total).toBe(4)
  })
})
