// The datastore and datasource endpoints, up to the queue (the worker is tested with lib/ingest; end-to-end paths are
// in datastores-e2e.test.ts).
import { describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasourceSynch from '@/app/api/datasources/[id]/synch/route'
import * as datasources from '@/app/api/datasources/route'
import * as datastoreDatasources from '@/app/api/datastores/[id]/datasources/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { getBlobStore, originalKey } from '@/lib/db/blob-store'
import { ACCEPTED_FILE_TYPES } from '@/lib/domain/file-types'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { newId } from '@/lib/db/ids'
import { call, expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

async function newDatastore(tenant: TestTenant, body: Record<string, unknown> = { name: 'Docs' }) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body })
  expect(res.status).toBe(201)
  return res.json
}

function upsertCall(tenant: TestTenant, datastoreId: string, body: unknown) {
  return call(upsert.POST, `/api/datastores/upsert/${datastoreId}`, { method: 'POST', headers: tenant.headers, body, params: { datastoreId } })
}

function fileForm(parts: Record<string, string | File>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(parts)) form.append(k, v)
  return form
}

async function original(id: string) {
  return (await getBlobStore()).get(originalKey(id))
}

async function addChunk(tenant: TestTenant, datastoreId: string, datasourceId: string, text = 'some text') {
  const { sql } = await getDatabase()
  await sql.query(
    `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens) VALUES ($1, $2, $3, $4, 0, $5, 2)`,
    [newId(), tenant.ctx.organizationId, datastoreId, datasourceId, text],
  )
}

describe('datastores', () => {
  test('a datastore is created, read, renamed, listed with its counts and deleted', async () => {
    const tenant = await createTenant()
    const created = await newDatastore(tenant, { name: 'Support', description: 'FAQ' })
    expect(created).toMatchObject({ name: 'Support', description: 'FAQ', visibility: 'private', nbDatasources: 0, nbChunks: 0, chunkSize: 512, chunkOverlap: 64 })
    expect(['hybrid', 'fulltext']).toContain(created.searchMode)
    const params = { id: created.id }
    const read = await call(datastoreItem.GET, `/api/datastores/${created.id}`, { headers: tenant.headers, params })
    expect(read.json).toEqual(created)
    const patched = await call(datastoreItem.PATCH, `/api/datastores/${created.id}`, { method: 'PATCH', headers: tenant.headers, params, body: { name: 'Help', chunkSize: 256, chunkOverlap: 32 } })
    expect(patched.status).toBe(200)
    expect(patched.json).toMatchObject({ name: 'Help', description: 'FAQ', chunkSize: 256, chunkOverlap: 32 })

    await upsertCall(tenant, created.id, { documents: [{ text: 'one' }, { text: 'two' }] })
    const listed = await call(datastores.GET, '/api/datastores', { headers: tenant.headers })
    expect(listed.json.find((d: any) => d.id === created.id)).toMatchObject({ name: 'Help', nbDatasources: 2 })

    const deleted = await call(datastoreItem.DELETE, `/api/datastores/${created.id}`, { method: 'DELETE', headers: tenant.headers, params })
    expect(deleted.status).toBe(200)
    expect(deleted.json.id).toBe(created.id)
    expect((await call(datastoreItem.GET, `/api/datastores/${created.id}`, { headers: tenant.headers, params })).status).toBe(404)
  })

  test('deleting a datastore removes its datasources, chunks and stored originals', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const { json } = await upsertCall(tenant, store.id, { documents: [{ text: 'kept until the datastore goes' }] })
    const [id] = json.ids
    await addChunk(tenant, store.id, id)
    expect(await original(id)).not.toBeNull()
    await call(datastoreItem.DELETE, `/api/datastores/${store.id}`, { method: 'DELETE', headers: tenant.headers, params: { id: store.id } })
    const prisma = await getPrisma()
    expect(await prisma.datasource.count({ where: { datastoreId: store.id } })).toBe(0)
    expect(await prisma.chunk.count({ where: { datastoreId: store.id } })).toBe(0)
    expect(await original(id)).toBeNull()
  })

  test('chunkOverlap must stay below chunkSize', async () => {
    const tenant = await createTenant()
    const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'x', chunkSize: 128, chunkOverlap: 128 } })
    expect(res.status).toBe(400)
    expect(res.json.error.details[0].path).toBe('chunkOverlap')
  })
})

describe('upsert', () => {
  test('each document becomes a pending text datasource with its original, answered in document order', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const long = 'Our warranty covers every kettle sold in the European Union for two full years after purchase.'
    const res = await upsertCall(tenant, store.id, {
      documents: [
        { text: 'First document', name: 'First', metadata: { source: 'https://a.example/1', custom_id: 'cust-1' } },
        { text: long },
        { text: 'Third', metadata: null, unknownField: true },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.json.ids).toHaveLength(3)
    const items = await Promise.all(res.json.ids.map((id: string) => call(datasourceItem.GET, `/api/datasources/${id}`, { headers: tenant.headers, params: { id } })))
    expect(items.map(i => i.json.name)).toEqual(['First', 'Our warranty covers every kettle sold in the European Union…', 'Third'])
    expect(items[0].json).toMatchObject({ type: 'text', status: 'pending', custom_id: 'cust-1', datastoreId: store.id, metadata: { source: 'https://a.example/1', custom_id: 'cust-1' }, groupId: null, lastSynch: null })
    const blob = await original(res.json.ids[1])
    expect(new TextDecoder().decode(blob!.data)).toBe(long)
    expect(blob!.contentType).toBe('text/plain; charset=utf-8')
  })

  test('a document with the id of an existing datasource replaces its content and re-queues it', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const first = await upsertCall(tenant, store.id, { documents: [{ text: 'Kettle warranty is two years.', metadata: { custom_id: 'a' } }] })
    const [id] = first.json.ids
    const prisma = await getPrisma()
    await prisma.datasource.update({ where: { id }, data: { status: 'synched', attempts: 3, errorMessage: 'old' } })
    const second = await upsertCall(tenant, store.id, { documents: [{ id, text: 'Kettle warranty is three years.', name: 'Warranty' }] })
    expect(second.json.ids).toEqual([id])
    const row = await prisma.datasource.findUniqueOrThrow({ where: { id } })
    expect(row).toMatchObject({ status: 'pending', name: 'Warranty', customId: null, metadata: null, attempts: 0, errorMessage: null, leaseExpiresAt: null })
    expect(new TextDecoder().decode((await original(id))!.data)).toBe('Kettle warranty is three years.')
    expect(await prisma.datasource.count({ where: { datastoreId: store.id } })).toBe(1)
  })

  test('an id that is not a datasource of this datastore is a 404 and nothing is created', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const other = await newDatastore(tenant, { name: 'Other' })
    const { json } = await upsertCall(tenant, other.id, { documents: [{ text: 'elsewhere' }] })
    for (const id of ['nope', json.ids[0]]) {
      const res = await upsertCall(tenant, store.id, { documents: [{ text: 'new' }, { id, text: 'x' }] })
      expect(res.status).toBe(404)
      expectErrorBody(res.json, 'not_found')
    }
    expect(await (await getPrisma()).datasource.count({ where: { datastoreId: store.id } })).toBe(0)
  })

  test('more than 1,000 documents is a 413; none is a 400; an empty text is a 400 naming its index', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const tooMany = await upsertCall(tenant, store.id, { documents: Array.from({ length: 1001 }, () => ({ text: 'x' })) })
    expect(tooMany.status).toBe(413)
    expectErrorBody(tooMany.json, 'payload_too_large')
    expect(tooMany.json.error.message).toContain('1000')
    const none = await upsertCall(tenant, store.id, { documents: [] })
    expect(none.status).toBe(400)
    const empty = await upsertCall(tenant, store.id, { documents: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }, { text: '  \n ' }] })
    expect(empty.status).toBe(400)
    expect(empty.json.error.details.map((d: any) => d.path)).toEqual(['documents.3.text'])
    const exactly = await upsertCall(tenant, store.id, { documents: Array.from({ length: 1000 }, (_, i) => ({ text: `doc ${i}` })) })
    expect(exactly.status).toBe(200)
    expect(new Set(exactly.json.ids).size).toBe(1000)
  })
})

describe('file uploads', () => {
  const markdown = () => new File(['# Title\n\nSome markdown.'], 'notes.md', { type: 'text/markdown' })

  test('POST /api/datasources (multipart) stores the original and answers a pending file datasource', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const res = await call(datasources.POST, '/api/datasources', {
      method: 'POST', headers: tenant.headers,
      body: fileForm({ type: 'file', datastoreId: store.id, file: markdown(), fileName: 'Release notes.md', custom_id: 'user-7' }),
    })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ type: 'file', status: 'pending', name: 'Release notes.md', custom_id: 'user-7', datastoreId: store.id })
    expect(res.json.config).toEqual({ fileName: 'Release notes.md', mimeType: 'text/markdown', size: 23 })
    const blob = await original(res.json.id)
    expect(blob!.contentType).toBe('text/markdown')
    expect(new TextDecoder().decode(blob!.data)).toBe('# Title\n\nSome markdown.')
  })

  test('the external upload endpoint answers the same resource', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const res = await call(externalUpload.POST, `/api/external/datastores/file-upload/${store.id}`, {
      method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: fileForm({ file: markdown(), custom_id: 'c1' }),
    })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ type: 'file', status: 'pending', name: 'notes.md', custom_id: 'c1', config: { mimeType: 'text/markdown' } })
  })

  test('an application/octet-stream part (or one without a type) is typed from its file name', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const cases: [File, Record<string, string>, string][] = [
      [new File(['{"a":1}'], 'data.json', { type: 'application/octet-stream' }), {}, 'application/json'],
      [new File(['a,b\n1,2'], 'blob', { type: 'application/octet-stream' }), { fileName: 'table.CSV' }, 'text/csv'],
      [new File(['plain'], 'readme.txt'), {}, 'text/plain'],
      [new File(['a,b'], 'export.csv', { type: 'application/vnd.ms-excel' }), {}, 'text/csv'],
    ]
    for (const [file, extra, type] of cases) {
      const res = await call(externalUpload.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: fileForm({ file, ...extra }) })
      expect(res.status, file.name).toBe(201)
      expect(res.json.config.mimeType).toBe(type)
      expect((await original(res.json.id))!.contentType).toBe(type)
    }
  })

  test('another type is a 415 listing the accepted ones, also an octet-stream with an unknown extension', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    for (const file of [new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }), new File(['MZ'], 'tool.exe', { type: 'application/octet-stream' })]) {
      for (const [handler, body] of [
        [externalUpload.POST, fileForm({ file })],
        [datasources.POST, fileForm({ file, type: 'file', datastoreId: store.id })],
      ] as const) {
        const res = await call(handler, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body })
        expect(res.status).toBe(415)
        expectErrorBody(res.json, 'unsupported_media_type')
        expect(res.json.error.details.accepted).toEqual([...ACCEPTED_FILE_TYPES])
        expect(res.json.error.details.accepted).toContain('application/pdf')
      }
    }
    expect(await (await getPrisma()).datasource.count({ where: { datastoreId: store.id } })).toBe(0)
  })

  test('a file over LIMIT_FILE_SIZE_MB is a 413 on both endpoints', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    process.env.LIMIT_FILE_SIZE_MB = '1'
    try {
      for (const size of [1024 * 1024 + 1, 3 * 1024 * 1024]) {
        const file = new File([new Uint8Array(size).fill(97)], 'big.txt', { type: 'text/plain' })
        for (const [handler, body] of [
          [externalUpload.POST, fileForm({ file })],
          [datasources.POST, fileForm({ file, type: 'file', datastoreId: store.id })],
        ] as const) {
          const res = await call(handler, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body })
          expect(res.status, `${size}`).toBe(413)
          expectErrorBody(res.json, 'payload_too_large')
          expect(res.json.error.message).toContain('1 MB')
        }
      }
      const fits = new File([new Uint8Array(1024 * 1024).fill(97)], 'fits.txt', { type: 'text/plain' })
      const ok = await call(externalUpload.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: fileForm({ file: fits }) })
      expect(ok.status).toBe(201)
    } finally {
      delete process.env.LIMIT_FILE_SIZE_MB
    }
  })
})

describe('web datasources', () => {
  test('a web_page and a web_site are created pending with their config (JSON form)', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const page = await call(datasources.POST, '/api/datasources', {
      method: 'POST', headers: tenant.headers,
      body: { datastoreId: store.id, type: 'web_page', name: 'Pricing', config: { source_url: 'https://example.com/pricing' } },
    })
    expect(page.status).toBe(201)
    expect(page.json).toMatchObject({ type: 'web_page', name: 'Pricing', status: 'pending', config: { source_url: 'https://example.com/pricing' } })
    const site = await call(datasources.POST, '/api/datasources', {
      method: 'POST', headers: tenant.headers,
      body: { datastoreId: store.id, type: 'web_site', config: { sitemap: 'https://example.com/sitemap.xml' }, custom_id: 'acme' },
    })
    expect(site.status).toBe(201)
    expect(site.json).toMatchObject({ type: 'web_site', name: 'example.com/sitemap.xml', custom_id: 'acme', config: { sitemap: 'https://example.com/sitemap.xml' } })
  })

  test('a URL that is not http(s) is a 400 naming the field', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    for (const [type, config, path] of [
      ['web_page', { source_url: 'file:///etc/passwd' }, 'config.source_url'],
      ['web_page', { source_url: 'not a url' }, 'config.source_url'],
      ['web_site', { sitemap: 'ftp://example.com/sitemap.xml' }, 'config.sitemap'],
      ['web_site', {}, 'config'],
    ] as const) {
      const res = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body: { datastoreId: store.id, type, config } })
      expect(res.status, JSON.stringify(config)).toBe(400)
      expect(res.json.error.details.map((d: any) => d.path)).toContain(path)
    }
  })
})

describe('datasources', () => {
  test("a datastore's datasources are listed newest first, filtered by status and type, page by page", async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const { json } = await upsertCall(tenant, store.id, { documents: Array.from({ length: 5 }, (_, i) => ({ text: `doc ${i}`, name: `d${i}` })) })
    const prisma = await getPrisma()
    // distinct creation times, doc 4 newest
    for (const [i, id] of json.ids.entries()) await prisma.datasource.update({ where: { id }, data: { createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) } })
    await prisma.datasource.update({ where: { id: json.ids[1] }, data: { status: 'error', errorMessage: 'broken' } })
    const list = (query: string) => call(datastoreDatasources.GET, `/api/datastores/${store.id}/datasources${query}`, { headers: tenant.headers, params: { id: store.id } })

    const first = await list('?limit=2')
    expect(first.status).toBe(200)
    expect(first.json.items.map((d: any) => d.name)).toEqual(['d4', 'd3'])
    expect(first.json.total).toBe(5)
    const second = await list(`?limit=2&cursor=${first.json.nextCursor}`)
    expect(second.json.items.map((d: any) => d.name)).toEqual(['d2', 'd1'])
    const third = await list(`?limit=2&cursor=${second.json.nextCursor}`)
    expect(third.json.items.map((d: any) => d.name)).toEqual(['d0'])
    expect(third.json.nextCursor).toBeNull()

    const failed = await list('?status=error')
    expect(failed.json.items.map((d: any) => [d.name, d.errorMessage])).toEqual([['d1', 'broken']])
    expect((await list('?status=pending,error&type=text')).json.total).toBe(5)
    expect((await list('?type=web_page')).json.items).toEqual([])
    expect((await list('?status=done')).status).toBe(400)
    expect((await list('?cursor=garbage')).status).toBe(400)
    expect((await list('?limit=500')).status).toBe(400)
  })

  test('deleting a datasource removes its chunks and original and answers the deleted resource', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const { json } = await upsertCall(tenant, store.id, { documents: [{ text: 'to delete' }, { text: 'to keep' }] })
    const [gone, kept] = json.ids
    await addChunk(tenant, store.id, gone)
    await addChunk(tenant, store.id, kept)
    const res = await call(datasourceItem.DELETE, `/api/datasources/${gone}`, { method: 'DELETE', headers: tenant.headers, params: { id: gone } })
    expect(res.status).toBe(200)
    expect(res.json.id).toBe(gone)
    const prisma = await getPrisma()
    expect(await prisma.chunk.count({ where: { datasourceId: gone } })).toBe(0)
    expect(await prisma.chunk.count({ where: { datasourceId: kept } })).toBe(1)
    expect(await original(gone)).toBeNull()
    expect(await original(kept)).not.toBeNull()
    expect((await call(datasourceItem.GET, `/api/datasources/${gone}`, { headers: tenant.headers, params: { id: gone } })).status).toBe(404)
  })

  test('deleting a web site removes its pages, their chunks and originals', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const prisma = await getPrisma()
    const site = await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'web_site', name: 'site', config: { source_url: 'https://e.example' } } })
    const page = await prisma.datasource.create({ data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'web_page', name: 'p', groupId: site.id, config: { source_url: 'https://e.example/p' } } })
    await (await getBlobStore()).put(originalKey(page.id), new TextEncoder().encode('<html>'), 'text/html')
    await addChunk(tenant, store.id, page.id)
    await call(datasourceItem.DELETE, `/api/datasources/${site.id}`, { method: 'DELETE', headers: tenant.headers, params: { id: site.id } })
    expect(await prisma.datasource.count({ where: { id: { in: [site.id, page.id] } } })).toBe(0)
    expect(await prisma.chunk.count({ where: { datasourceId: page.id } })).toBe(0)
    expect(await original(page.id)).toBeNull()
  })

  test("deleting a site's last unfinished page updates the site's status from the pages that remain", async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const prisma = await getPrisma()
    const org = tenant.ctx.organizationId
    const site = await prisma.datasource.create({ data: { organizationId: org, datastoreId: store.id, type: 'web_site', name: 'site', status: 'running', config: { source_url: 'https://e.example' } } })
    await prisma.datasource.create({ data: { organizationId: org, datastoreId: store.id, type: 'web_page', name: 'done', status: 'synched', groupId: site.id, config: { source_url: 'https://e.example/a' } } })
    const stuck = await prisma.datasource.create({ data: { organizationId: org, datastoreId: store.id, type: 'web_page', name: 'stuck', status: 'pending', groupId: site.id, config: { source_url: 'https://e.example/b' } } })
    const res = await call(datasourceItem.DELETE, `/api/datasources/${stuck.id}`, { method: 'DELETE', headers: tenant.headers, params: { id: stuck.id } })
    expect(res.status).toBe(200)
    expect((await prisma.datasource.findUniqueOrThrow({ where: { id: site.id } })).status).toBe('synched')
  })

  test('synch re-queues a datasource and answers it pending', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const { json } = await upsertCall(tenant, store.id, { documents: [{ text: 'again' }] })
    const [id] = json.ids
    const prisma = await getPrisma()
    await prisma.datasource.update({ where: { id }, data: { status: 'error', errorMessage: 'failed', attempts: 5, nextRunAt: new Date(Date.now() + 3_600_000) } })
    const res = await call(datasourceSynch.POST, `/api/datasources/${id}/synch`, { method: 'POST', headers: tenant.headers, params: { id } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id, status: 'pending', errorMessage: null })
    const row = await prisma.datasource.findUniqueOrThrow({ where: { id } })
    expect(row.attempts).toBe(0)
    expect(row.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now())
  })
})

describe('tenancy', () => {
  test("another organization's datastore, datasource and query all answer 404", async () => {
    const owner = await createTenant()
    const stranger = await createTenant()
    const store = await newDatastore(owner)
    const { json } = await upsertCall(owner, store.id, { documents: [{ text: 'secret plans' }] })
    const [dsId] = json.ids
    const h = stranger.headers
    const p = { id: store.id }
    const attempts = [
      call(datastoreItem.GET, '/x', { headers: h, params: p }),
      call(datastoreItem.PATCH, '/x', { method: 'PATCH', headers: h, params: p, body: { name: 'mine' } }),
      call(datastoreItem.DELETE, '/x', { method: 'DELETE', headers: h, params: p }),
      call(datastoreDatasources.GET, '/x', { headers: h, params: p }),
      call(datastoreQuery.POST, '/x', { method: 'POST', headers: h, params: p, body: { query: 'secret' } }),
      call(upsert.POST, '/x', { method: 'POST', headers: h, params: { datastoreId: store.id }, body: { documents: [{ text: 'x' }] } }),
      call(externalUpload.POST, '/x', { method: 'POST', headers: h, params: { datastoreId: store.id }, body: fileForm({ file: new File(['x'], 'x.txt', { type: 'text/plain' }) }) }),
      call(datasources.POST, '/x', { method: 'POST', headers: h, body: fileForm({ type: 'file', datastoreId: store.id, file: new File(['x'], 'x.txt', { type: 'text/plain' }) }) }),
      call(datasources.POST, '/x', { method: 'POST', headers: h, body: { type: 'web_page', datastoreId: store.id, config: { source_url: 'https://example.com' } } }),
      call(datasourceItem.GET, '/x', { headers: h, params: { id: dsId } }),
      call(datasourceItem.DELETE, '/x', { method: 'DELETE', headers: h, params: { id: dsId } }),
      call(datasourceSynch.POST, '/x', { method: 'POST', headers: h, params: { id: dsId } }),
    ]
    for (const [i, res] of (await Promise.all(attempts)).entries()) {
      expect(res.status, `attempt ${i}`).toBe(404)
      expectErrorBody(res.json, 'not_found')
    }
    // and nothing changed for the owner
    const mine = await call(datastoreItem.GET, '/x', { headers: owner.headers, params: p })
    expect(mine.json).toMatchObject({ name: 'Docs', nbDatasources: 1 })
  })
})
