import { expect } from 'vitest'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { getPrisma } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { call } from './http'
import type { TestTenant } from './tenants'

// The retrieval tests' datastore (issue 13): documents upserted through the route and synched by the worker.

export async function upsertedDatastore(tenant: TestTenant, documents: { text: string; name?: string; metadata?: Record<string, unknown> }[], name = 'Docs') {
  const prisma = await getPrisma()
  const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name } })
  const res = await call(upsert.POST, '/x', { method: 'POST', headers: tenant.headers, params: { datastoreId: store.id }, body: { documents } })
  expect(res.status).toBe(200)
  await drainQueue()
  return store.id
}
