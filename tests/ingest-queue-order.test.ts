// The order in which the worker takes queued datasources (lib/ingest/lifecycle/claim.ts): content a user added and
// cannot search yet comes before background work queued earlier (re-syncs, pages a site found).
import { describe, expect, test } from 'vitest'
import { synchDatasource } from '@/lib/datastores/datasources'
import { createDatastore } from '@/lib/datastores/datastores'
import { upsertDocuments } from '@/lib/datastores/upsert'
import { getPrisma } from '@/lib/db/client'
import { claimDatasources } from '@/lib/ingest/lifecycle'
import { drainQueue } from '@/lib/ingest/worker'
import { createTenant } from './helpers/tenants'

const text = (i: number) => `Document ${i}: the kettle model ${i} keeps water hot for ${i} hours.`

async function setUp() {
  const tenant = await createTenant()
  const store = await createDatastore(tenant.ctx, { name: 'queue order' })
  return { ctx: tenant.ctx, store }
}

describe('the queue order', () => {
  test('a new upload is claimed before due re-syncs queued earlier', async () => {
    const { ctx, store } = await setUp()
    const { ids: synched } = await upsertDocuments(ctx, store.id, [0, 1, 2].map(i => ({ text: text(i) })))
    expect(await drainQueue()).toBe(3)
    for (const id of synched) await synchDatasource(ctx, id)
    const { ids: [upload] } = await upsertDocuments(ctx, store.id, [{ text: text(3) }])

    const claimed = await claimDatasources('worker', 60_000, { limit: 10 })
    expect(claimed.map(d => d.id)).toEqual([upload, ...synched])
  })

  test("a new upload is claimed before the pages a site found earlier, and every queued row is due from its creation", async () => {
    const { ctx, store } = await setUp()
    const prisma = await getPrisma()
    const site = await prisma.datasource.create({
      data: { organizationId: ctx.organizationId, datastoreId: store.id, type: 'web_site', name: 'site', status: 'running', config: {} },
    })
    // as discovery queues them: pages of the site, never synched
    const { ids: pages } = await upsertDocuments(ctx, store.id, [0, 1].map(i => ({ text: text(i) })))
    await prisma.datasource.updateMany({ where: { id: { in: pages } }, data: { groupId: site.id } })
    const { ids: [upload] } = await upsertDocuments(ctx, store.id, [{ text: text(2) }])

    const queued = await prisma.datasource.findMany({ where: { id: { in: [...pages, upload] } } })
    for (const row of queued) expect(row.nextRunAt).not.toBeNull()
    const claimed = await claimDatasources('worker', 60_000, { limit: 10 })
    expect(claimed.map(d => d.id)).toEqual([upload, ...pages])
  })
})
