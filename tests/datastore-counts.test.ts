import { describe, expect, test } from 'vitest'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import { getPrisma } from '@/lib/db/client'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

// Issue 22, point 10: the datastore page said "12 datasources" beside a list of 8, the other 4 being a site's pages
// (listed under the site). The resource says how many of its datasources are site pages.

describe('datastore counts', () => {
  test("a datastore tells its site pages apart from the datasources listed beside each other", async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const organizationId = tenant.ctx.organizationId
    const store = await prisma.datastore.create({ data: { organizationId, name: 'Docs' } })
    const site = await prisma.datasource.create({ data: { organizationId, datastoreId: store.id, type: 'web_site', name: 'site', status: 'synched' } })
    for (let i = 0; i < 4; i++) {
      await prisma.datasource.create({ data: { organizationId, datastoreId: store.id, type: 'web_page', name: `page ${i}`, status: 'synched', groupId: site.id } })
    }
    await prisma.datasource.create({ data: { organizationId, datastoreId: store.id, type: 'text', name: 'note', status: 'synched' } })
    const res = await call(datastoreItem.GET, `/api/datastores/${store.id}`, { headers: tenant.headers, params: { id: store.id } })
    expect(res.json).toMatchObject({ nbDatasources: 6, nbSitePages: 4 })
  })
})
