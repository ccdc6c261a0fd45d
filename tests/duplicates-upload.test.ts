// Duplicate detection (issue 15, defect 4): the same file or text uploaded twice to a datastore is reported, with the
// datasource that holds it, and not indexed twice, unless the caller asks for a copy with allowDuplicates=true.
import { describe, expect, test } from 'vitest'
import * as datasources from '@/app/api/datasources/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as externalUpload from '@/app/api/external/datastores/file-upload/[datastoreId]/route'
import { findHolders, holdersStatement, sha256Hex } from '@/lib/datastores/duplicates'
import { getDatabase, getPrisma } from '@/lib/db/client'
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

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Actual Rows': number; 'Rows Removed by Filter'?: number; 'Rows Removed by Index Recheck'?: number; Plans?: PlanNode[] }
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)]

describe('the duplicate look-up (issue 28)', () => {
  test('probes its index once a hash, however many datasources the datastore holds and whatever the planner knows of them', async () => {
    const tenant = await createTenant()
    const store = await newDatastore(tenant)
    const other = await newDatastore(tenant)
    const { sql } = await getDatabase()
    // 400 datasources carrying their content's hash, as uploads write them, and the same hashes in another datastore;
    // no ANALYZE: a new datastore is looked up before any statistics exist
    for (const datastoreId of [store.id, other.id]) {
      const values = Array.from({ length: 400 }, (_, i) => `('${datastoreId}_${i}', '${tenant.ctx.organizationId}', '${datastoreId}', 'text', 'doc ${i}', '{"sha256":"${sha256Hex(String(i))}"}'::jsonb, now() + interval '${i} seconds', now())`)
      await sql.query(`INSERT INTO "Datasource" (id, "organizationId", "datastoreId", type, name, config, "createdAt", "updatedAt") VALUES ${values.join(', ')}`)
    }
    const hashes = [3, 150, 399, 1000, 1001].map(i => sha256Hex(String(i)))
    const holders = await findHolders(store.id, hashes)
    expect([...holders.values()].map(h => h.id).sort()).toEqual([`${store.id}_150`, `${store.id}_3`, `${store.id}_399`])

    const statement = holdersStatement(store.id, hashes)
    const [row] = await sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.params)
    const nodes = planNodes(row['QUERY PLAN'][0].Plan)
    expect(nodes.some(n => n['Index Name'] === 'Datasource_datastoreId_sha256_key_idx')).toBe(true)
    // rows read: the three holders, not the datastore's 400 (nor the other datastore's)
    const scans = nodes.filter(n => /Scan/.test(n['Node Type']))
    const read = scans.reduce((sum, n) => sum + n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0), 0)
    expect(read).toBeLessThanOrEqual(2 * 3)
  })
})
