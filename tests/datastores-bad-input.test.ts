// Bad input on every datastore and datasource endpoint: a 4xx with the JSON error body, never a 5xx.
import { beforeAll, describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasourceSynch from '@/app/api/datasources/[id]/synch/route'
import * as datasources from '@/app/api/datasources/route'
import * as datastoreDatasources from '@/app/api/datastores/[id]/datasources/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { call, expectErrorBody, type CallOptions } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

type Handler = Parameters<typeof call>[0]
type Options = CallOptions & { path?: string }
type Case = [name: string, handler: Handler, options: Options | (() => Options), status: number, detailPath?: string]

let tenant: TestTenant
let storeId: string
let datasourceId: string

beforeAll(async () => {
  tenant = await createTenant()
  const store = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'kb' } })
  storeId = store.json.id
  const up = await call(upsert.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: storeId }, body: { documents: [{ text: 'hello' }] } })
  datasourceId = up.json.ids[0]
})

function form(parts: Record<string, string | File>) {
  const f = new FormData()
  for (const [k, v] of Object.entries(parts)) f.append(k, v)
  return f
}
const txt = () => new File(['hello'], 'hello.txt', { type: 'text/plain' })
const json = (body: string) => ({ 'content-type': 'application/json', body })

function cases(): Case[] {
  const h = tenant.headers
  const store = { id: storeId }
  const target = { datastoreId: storeId }
  const post = (body: unknown, params?: Record<string, string>, headers: Record<string, string> = {}): CallOptions => ({ method: 'POST', headers: { ...h, ...headers }, body, params })
  const raw = (contentType: string, body: string, params?: Record<string, string>): CallOptions => ({ method: 'POST', headers: { ...h, 'content-type': contentType }, body, params })
  const q = (body: unknown) => post(body, store)
  const up = (body: unknown) => post(body, target)
  return [
    // POST /api/datastores
    ['create: no API key', datastores.POST, { method: 'POST', body: { name: 'x' } }, 401],
    ['create: malformed JSON', datastores.POST, raw('application/json', '{"name":'), 400],
    ['create: not JSON', datastores.POST, raw('text/plain', 'name=x'), 415],
    ['create: name missing', datastores.POST, post({ description: 'x' }), 400, 'name'],
    ['create: name a number', datastores.POST, post({ name: 42 }), 400, 'name'],
    ['create: name empty', datastores.POST, post({ name: '   ' }), 400, 'name'],
    ['create: name too long', datastores.POST, post({ name: 'x'.repeat(201) }), 400, 'name'],
    ['create: description a number', datastores.POST, post({ name: 'x', description: 1 }), 400, 'description'],
    ['create: visibility unknown', datastores.POST, post({ name: 'x', visibility: 'secret' }), 400, 'visibility'],
    ['create: chunkSize a string', datastores.POST, post({ name: 'x', chunkSize: 'big' }), 400, 'chunkSize'],
    ['create: body an array', datastores.POST, post([{ name: 'x' }]), 400],
    // /api/datastores/{id}
    ['get: unknown id', datastoreItem.GET, { headers: h, params: { id: 'missing' } }, 404],
    ['get: absurd id', datastoreItem.GET, { headers: h, params: { id: 'x'.repeat(300) } }, 400],
    ['patch: unknown id', datastoreItem.PATCH, { method: 'PATCH', headers: h, params: { id: 'missing' }, body: { name: 'y' } }, 404],
    ['patch: name a number', datastoreItem.PATCH, { method: 'PATCH', headers: h, params: store, body: { name: 1 } }, 400, 'name'],
    ['patch: chunkSize negative', datastoreItem.PATCH, { method: 'PATCH', headers: h, params: store, body: { chunkSize: -1 } }, 400, 'chunkSize'],
    ['patch: malformed JSON', datastoreItem.PATCH, { method: 'PATCH', headers: { ...h, 'content-type': 'application/json' }, params: store, body: '{' }, 400],
    ['patch: not JSON', datastoreItem.PATCH, { method: 'PATCH', headers: { ...h, 'content-type': 'text/plain' }, params: store, body: 'x' }, 415],
    ['delete: unknown id', datastoreItem.DELETE, { method: 'DELETE', headers: h, params: { id: 'missing' } }, 404],
    ['datastore: wrong method', datastoreItem.POST, { method: 'POST', headers: h, params: store }, 405],
    // GET /api/datastores/{id}/datasources
    ['list: unknown datastore', datastoreDatasources.GET, { headers: h, params: { id: 'missing' } }, 404],
    ['list: limit 0', datastoreDatasources.GET, { headers: h, params: store, path: `/api/datastores/${storeId}/datasources?limit=0` }, 400, 'limit'],
    // POST /api/datastores/{id}/query
    ['query: unknown datastore', datastoreQuery.POST, post({ query: 'x' }, { id: 'missing' }), 404],
    ['query: query missing', datastoreQuery.POST, q({ topK: 3 }), 400, 'query'],
    ['query: query empty', datastoreQuery.POST, q({ query: ' ' }), 400, 'query'],
    ['query: query a number', datastoreQuery.POST, q({ query: 12 }), 400, 'query'],
    ['query: query too long', datastoreQuery.POST, q({ query: 'x'.repeat(10_001) }), 400, 'query'],
    ['query: topK 0', datastoreQuery.POST, q({ query: 'x', topK: 0 }), 400, 'topK'],
    ['query: topK 1000', datastoreQuery.POST, q({ query: 'x', topK: 1000 }), 400, 'topK'],
    ['query: topK 101', datastoreQuery.POST, q({ query: 'x', topK: 101 }), 400, 'topK'],
    ['query: topK fractional', datastoreQuery.POST, q({ query: 'x', topK: 2.5 }), 400, 'topK'],
    ['query: topK a string', datastoreQuery.POST, q({ query: 'x', topK: '5' }), 400, 'topK'],
    ['query: filters a string', datastoreQuery.POST, q({ query: 'x', filters: 'mine' }), 400, 'filters'],
    ['query: custom_ids not an array', datastoreQuery.POST, q({ query: 'x', filters: { custom_ids: 'a' } }), 400, 'filters.custom_ids'],
    ['query: datasource_ids of numbers', datastoreQuery.POST, q({ query: 'x', filters: { datasource_ids: [1] } }), 400, 'filters.datasource_ids.0'],
    ['query: malformed JSON', datastoreQuery.POST, raw('application/json', '{"query": "x"', store), 400],
    ['query: not JSON', datastoreQuery.POST, raw('application/x-www-form-urlencoded', 'query=x', store), 415],
    ['query: wrong method', datastoreQuery.GET, { headers: h, params: store }, 405],
    // POST /api/datastores/upsert/{datastoreId}
    ['upsert: unknown datastore', upsert.POST, post({ documents: [{ text: 'x' }] }, { datastoreId: 'missing' }), 404],
    ['upsert: documents missing', upsert.POST, up({}), 400, 'documents'],
    ['upsert: documents a string', upsert.POST, up({ documents: 'x' }), 400, 'documents'],
    ['upsert: no documents', upsert.POST, up({ documents: [] }), 400, 'documents'],
    ['upsert: a document without text', upsert.POST, up({ documents: [{ name: 'x' }] }), 400, 'documents.0.text'],
    ['upsert: text a number', upsert.POST, up({ documents: [{ text: 'ok' }, { text: 5 }] }), 400, 'documents.1.text'],
    ['upsert: empty text', upsert.POST, up({ documents: [{ text: '' }] }), 400, 'documents.0.text'],
    ['upsert: metadata a string', upsert.POST, up({ documents: [{ text: 'a', metadata: 'x' }] }), 400, 'documents.0.metadata'],
    ['upsert: metadata an array', upsert.POST, up({ documents: [{ text: 'a', metadata: [] }] }), 400, 'documents.0.metadata'],
    ['upsert: name a number', upsert.POST, up({ documents: [{ text: 'a', name: 3 }] }), 400, 'documents.0.name'],
    ['upsert: id a number', upsert.POST, up({ documents: [{ text: 'a', id: 3 }] }), 400, 'documents.0.id'],
    ['upsert: unknown id', upsert.POST, up({ documents: [{ text: 'a', id: 'missing' }] }), 404],
    ['upsert: the same id twice', upsert.POST, () => up({ documents: [{ text: 'a', id: datasourceId }, { text: 'b', id: datasourceId }] }), 400, 'documents.1.id'],
    ['upsert: 1001 documents', upsert.POST, up({ documents: Array.from({ length: 1001 }, () => ({ text: 'x' })) }), 413],
    ['upsert: malformed JSON', upsert.POST, raw('application/json', '{"documents": [', target), 400],
    ['upsert: multipart instead of JSON', upsert.POST, post(form({ documents: 'x' }), target), 415],
    ['upsert: body null', upsert.POST, raw('application/json', 'null', target), 400],
    // POST /api/datasources
    ['datasource: no content type', datasources.POST, { method: 'POST', headers: h, body: new Uint8Array([1, 2]) }, 415],
    ['datasource: text/plain', datasources.POST, raw('text/plain', 'hello'), 415],
    ['datasource: file part missing', datasources.POST, post(form({ type: 'file', datastoreId: storeId })), 400, 'file'],
    ['datasource: file part is text', datasources.POST, post(form({ type: 'file', datastoreId: storeId, file: 'hello' })), 400, 'file'],
    ['datasource: type part missing', datasources.POST, post(form({ datastoreId: storeId, file: txt() })), 400, 'type'],
    ['datasource: type part web_page', datasources.POST, post(form({ type: 'web_page', datastoreId: storeId, file: txt() })), 400, 'type'],
    ['datasource: datastoreId part missing', datasources.POST, post(form({ type: 'file', file: txt() })), 400, 'datastoreId'],
    ['datasource: unknown datastore (multipart)', datasources.POST, post(form({ type: 'file', datastoreId: 'missing', file: txt() })), 404],
    ['datasource: file of another type', datasources.POST, post(form({ type: 'file', datastoreId: storeId, file: new File(['x'], 'a.gif', { type: 'image/gif' }) })), 415],
    ['datasource: truncated multipart', datasources.POST, raw('multipart/form-data; boundary=XYZ', '--XYZ\r\nContent-Disposition: form-data; name="type"\r\n\r\nfi'), 400],
    ['datasource: multipart without boundary', datasources.POST, raw('multipart/form-data', 'garbage'), 400],
    ['datasource: JSON type file', datasources.POST, post({ type: 'file', datastoreId: storeId }), 400, 'type'],
    ['datasource: JSON type missing', datasources.POST, post({ datastoreId: storeId, config: { source_url: 'https://e.com' } }), 400, 'type'],
    ['datasource: JSON config missing', datasources.POST, post({ type: 'web_page', datastoreId: storeId }), 400, 'config'],
    ['datasource: JSON source_url a number', datasources.POST, post({ type: 'web_page', datastoreId: storeId, config: { source_url: 1 } }), 400, 'config.source_url'],
    ['datasource: JSON source_url javascript:', datasources.POST, post({ type: 'web_page', datastoreId: storeId, config: { source_url: 'javascript:alert(1)' } }), 400, 'config.source_url'],
    ['datasource: JSON datastoreId missing', datasources.POST, post({ type: 'web_page', config: { source_url: 'https://e.com' } }), 400, 'datastoreId'],
    ['datasource: JSON unknown datastore', datasources.POST, post({ type: 'web_site', datastoreId: 'missing', config: { sitemap: 'https://e.com/s.xml' } }), 404],
    ['datasource: malformed JSON', datasources.POST, raw('application/json', '{"type":'), 400],
    // /api/datasources/{id} and synch
    ['datasource get: unknown id', datasourceItem.GET, { headers: h, params: { id: 'missing' } }, 404],
    ['datasource delete: unknown id', datasourceItem.DELETE, { method: 'DELETE', headers: h, params: { id: 'missing' } }, 404],
    ['datasource get: no API key', datasourceItem.GET, { params: { id: 'x' } }, 401],
    ['synch: unknown id', datasourceSynch.POST, { method: 'POST', headers: h, params: { id: 'missing' } }, 404],
    ['synch: wrong method', datasourceSynch.GET, { headers: h, params: { id: 'x' } }, 405],
    // POST /api/external/datastores/file-upload/{datastoreId}
    ['upload: unknown datastore', externalUpload.POST, post(form({ file: txt() }), { datastoreId: 'missing' }), 404],
    ['upload: JSON instead of multipart', externalUpload.POST, post({ file: 'hello' }, target), 415],
    ['upload: no content type', externalUpload.POST, { method: 'POST', headers: h, params: target, body: new Uint8Array([1]) }, 415],
    ['upload: file part missing', externalUpload.POST, post(form({ fileName: 'a.txt' }), target), 400, 'file'],
    ['upload: file part is text', externalUpload.POST, post(form({ file: 'hello' }), target), 400, 'file'],
    ['upload: malformed multipart', externalUpload.POST, raw('multipart/form-data; boundary=B', 'not a multipart body', target), 400],
    ['upload: file of another type', externalUpload.POST, post(form({ file: new File(['x'], 'a.zip', { type: 'application/zip' }) }), target), 415],
    ['upload: fileName part too long', externalUpload.POST, post(form({ file: txt(), fileName: 'x'.repeat(300) }), target), 400, 'fileName'],
  ]
}

describe('bad input', () => {
  test('every case answers its 4xx with the JSON error body', async () => {
    const failures: string[] = []
    for (const [name, handler, optionsOrFn, status, detailPath] of cases()) {
      const { path = '/api/x', ...options } = typeof optionsOrFn === 'function' ? optionsOrFn() : optionsOrFn
      const res = await call(handler, path, options)
      try {
        expect(res.status).toBe(status)
        expectErrorBody(res.json)
        if (detailPath) expect((res.json.error.details ?? []).map((d: any) => d.path)).toContain(detailPath)
      } catch (error) {
        failures.push(`${name}: got ${res.status} ${res.text.slice(0, 300)} (${(error as Error).message.split('\n')[0]})`)
      }
    }
    expect(failures).toEqual([])
  })

  test('query parameters of the datasource list are checked', async () => {
    for (const query of ['limit=0', 'limit=abc', 'limit=201', 'status=bogus', 'type=pdf', 'cursor=%%%', 'status=pending,nope']) {
      const res = await call(datastoreDatasources.GET, `/api/datastores/${storeId}/datasources?${query}`, { headers: tenant.headers, params: { id: storeId } })
      expect(res.status, query).toBe(400)
      expectErrorBody(res.json, 'invalid_request')
    }
  })
})
