import { expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as usage from '@/app/api/usage/route'
import { getPrisma } from '@/lib/db/client'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

test('datastore queries are counted in the month’s usage, per organization', async () => {
  const a = await createTenant()
  const b = await createTenant()
  const prisma = await getPrisma()
  const store = await prisma.datastore.create({ data: { organizationId: a.ctx.organizationId, name: 'docs' } })
  for (let i = 0; i < 3; i++) {
    const res = await call(datastoreQuery.POST, `/api/datastores/${store.id}/query`, { method: 'POST', headers: a.headers, body: { query: 'kettle' }, params: { id: store.id } })
    expect(res.status).toBe(200)
  }
  // a refused query (another tenant's datastore) counts for nobody
  const refused = await call(datastoreQuery.POST, `/api/datastores/${store.id}/query`, { method: 'POST', headers: b.headers, body: { query: 'kettle' }, params: { id: store.id } })
  expect(refused.status).toBe(404)
  expect((await call(usage.GET, '/api/usage', { headers: a.headers })).json.datastoreQueries).toEqual({ used: 3 })
  expect((await call(usage.GET, '/api/usage', { headers: b.headers })).json.datastoreQueries).toEqual({ used: 0 })
})
