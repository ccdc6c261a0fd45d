// Duplicate detection (issue 15, defect 4): the same file or text uploaded twice to a datastore is reported, with the
// datasource that holds it, and not indexed twice, unless the caller asks for a copy with allowDuplicates=true.
import { describe, expect, test } from 'vitest'
import * as datasources from '@/app/api/datasources/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { getPrisma } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

async function newDatastore(tenant: TestTenant) {
  const res = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Manuals' } })
  return res.json as { id: string }
}

function upload(tenant: TestTenant, datastoreId: string, fileName: string, text: string, query = '') {
  const form = new FormData()
  form.append('type', 'file')
  form.append('datastoreId', datastoreId)
  form.append('file', new File([text], fileName, { type: 'text/markdown' }))
  return call(datasources.POST, `/api/datasources${query}`, { method: 'POST', headers: tenant.headers, body: form })
}

async function chunkCount(datastoreId: string) {
  return (await getPrisma()).chunk.count({ where: { datastoreId } })
}

const MANUAL = '# Aurora kettle\n\nDescale the Aurora kettle every four weeks with white vinegar diluted in water.'

describe('duplicate uploads', () => {
  test('the same file uploaded twice is answered with the datasource that holds it and indexed once', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const first = await upload(tenant, store.id, 'aurora-manual.md', MANUAL)
    expect(first.status).toBe(201)
    const second = await upload(tenant, store.id, 'aurora-manual (1).md', MANUAL)
    expect(second.status).toBe(200)
    expect(second.json).toMatchObject({ id: first.json.id, name: 'aurora-manual.md', duplicate: true })
    await drainQueue()
    expect(await (await getPrisma()).datasource.count({ where: { datastoreId: store.id } })).toBe(1)
    expect(await chunkCount(store.id)).toBe(1)
  })

  test('allowDuplicates=true indexes a copy; another datastore is not a duplicate', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const other = await newDatastore(tenant)
    expect((await upload(tenant, store.id, 'a.md', MANUAL)).status).toBe(201)
    expect((await upload(tenant, other.id, 'a.md', MANUAL)).status).toBe(201)
    const copy = await upload(tenant, store.id, 'a.md', MANUAL, '?allowDuplicates=true')
    expect(copy.status).toBe(201)
    expect(copy.json.duplicate).toBeUndefined()
    expect(copy.json.config).toEqual({ fileName: 'a.md', mimeType: 'text/markdown', size: MANUAL.length })
  })

  test('the external upload endpoint reports a duplicate too', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const form = () => {
      const f = new FormData()
      f.append('file', new File([MANUAL], 'manual.md', { type: 'text/markdown' }))
      return f
    }
    const path = `/api/external/datastores/file-upload/${store.id}`
    const first = await call(externalUpload.POST, path, { method: 'POST', headers: tenant.headers, body: form(), params: { datastoreId: store.id } })
    const second = await call(externalUpload.POST, path, { method: 'POST', headers: tenant.headers, body: form(), params: { datastoreId: store.id } })
    expect([first.status, second.status]).toEqual([201, 200])
    expect(second.json).toMatchObject({ id: first.json.id, duplicate: true })
  })

  test('an upserted document whose text is held already keeps the holder id and is reported', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const post = (documents: unknown[], query = '') =>
      call(upsert.POST, `/api/datastores/upsert/${store.id}${query}`, { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: { documents } })
    const first = await post([{ text: 'Orders ship within two working days.', name: 'Shipping' }])
    expect(first.json.duplicates).toBeUndefined()
    const again = await post([
      { text: 'Orders ship within two working days.', name: 'Shipping again' },
      { text: 'Returns are free for thirty days.' },
      { text: 'Returns are free for thirty days.' },
    ])
    expect(again.json.ids[0]).toBe(first.json.ids[0])
    expect(again.json.ids[2]).toBe(again.json.ids[1])
    expect(again.json.duplicates).toEqual([
      { index: 0, datasourceId: first.json.ids[0], name: 'Shipping' },
      { index: 2, datasourceId: again.json.ids[1], name: 'Returns are free for thirty days.' },
    ])
    await drainQueue()
    expect(await chunkCount(store.id)).toBe(2)
    const copy = await post([{ text: 'Orders ship within two working days.' }], '?allowDuplicates=1')
    expect(copy.json.ids[0]).not.toBe(first.json.ids[0])
  })
})
