// HTML files (issue 26): read as a web page is, through the same extraction (lib/ingest/web/html.ts).
import { describe, expect, test } from 'vitest'
import * as datasourceItem from '@/app/api/datasources/[id]/route'
import * as datasources from '@/app/api/datasources/route'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastores from '@/app/api/datastores/route'
import { resolveFileType } from '@/lib/domain/file-types'
import { drainQueue } from '@/lib/ingest/worker'
import { chunksOf } from './fixtures/ingest'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

const EXPORTED_PAGE = `<!doctype html><html><head><meta charset="windows-1252"><title>Returns policy</title>
<script>window.analytics = "tracking code"</script><style>p { color: red }</style></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<main><h1>Returns</h1><p>Unworn boots can be returned within thirty days.</p><p>Refunds go back to the card used, caf\xe9 vouchers excepted.</p></main>
<footer>© Bootmakers</footer></body></html>`

describe('HTML files', () => {
  test('an uploaded HTML file is indexed with its title and main text, without scripts, navigation or footer', async () => {
    const tenant = await createTenant()
    const store = (await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'Pages' } })).json
    const form = new FormData()
    form.append('type', 'file')
    form.append('datastoreId', store.id)
    // saved pages are often in their site's charset: the <meta charset> decides
    form.append('file', new File([Buffer.from(EXPORTED_PAGE, 'latin1')], 'returns.html', { type: 'text/html' }))
    const created = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: tenant.headers, body: form })
    expect(created.status, created.text).toBe(201)
    await drainQueue()
    const ds = (await call(datasourceItem.GET, '/x', { headers: tenant.headers, params: { id: created.json.id } })).json
    expect(ds, ds.errorMessage).toMatchObject({ status: 'synched', config: { mimeType: 'text/html' } })
    const chunks = await chunksOf(created.json.id)
    expect(chunks.map(c => [c.text, c.metadata])).toEqual([
      ['Returns\n\nUnworn boots can be returned within thirty days.\n\nRefunds go back to the card used, café vouchers excepted.', { title: 'Returns policy' }],
    ])
    const res = await call(datastoreQuery.POST, '/x', { method: 'POST', headers: tenant.headers, params: { id: store.id }, body: { query: 'return boots' } })
    expect(res.json.map((f: { datasource_id: string }) => f.datasource_id)).toEqual([created.json.id])
  })

  test('.html and .htm files sent without a useful type are recognised by their name', () => {
    expect(resolveFileType('application/octet-stream', ['saved.htm'])).toBe('text/html')
    expect(resolveFileType('', ['index.HTML'])).toBe('text/html')
    expect(resolveFileType('application/xhtml+xml', ['page.xhtml'])).toBe('text/html')
  })
})
