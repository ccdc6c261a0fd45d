// Issue 27: GET /api/system, the System page's figures after real traffic — the organization's queue, what failed
// in the last hour (a datasource, a webhook delivery, an answer), the answers' latency and today's tokens; another
// organization's traffic is not counted; admins only.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as datasources from '@/app/api/datasources/route'
import * as datastores from '@/app/api/datastores/route'
import * as system from '@/app/api/system/route'
import * as webhooks from '@/app/api/webhooks/route'
import { createApiKey, generateApiKeySecret } from '@/lib/auth/api-keys'
import { drainQueue } from '@/lib/ingest/worker'
import { drainWebhooks } from '@/lib/ingest/background'
import { createAgentVia, queryAgentVia, seedDatastore, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { createTenant, type TestTenant } from '../helpers/tenants'

const model = useFakeModel()
const overview = (tenant: TestTenant) => call(system.GET, '/api/system', { headers: tenant.headers })

let tenant: TestTenant
let other: TestTenant
beforeAll(async () => {
  process.env.WORKER_MAX_ATTEMPTS = '1'
  ;[tenant, other] = [await createTenant(), await createTenant()]
})
afterAll(() => {
  delete process.env.WORKER_MAX_ATTEMPTS
})

async function queueWebPage(t: TestTenant, url: string) {
  const store = await call(datastores.POST, '/api/datastores', { method: 'POST', headers: t.headers, body: { name: 'Site' } })
  const res = await call(datasources.POST, '/api/datasources', { method: 'POST', headers: t.headers, body: { datastoreId: store.json.id, type: 'web_page', name: 'Intranet', config: { source_url: url } } })
  expect(res.status).toBe(201)
}

describe('GET /api/system', () => {
  test("a new organization: an empty queue, no failure, no latency yet, no tokens today", async () => {
    const res = await overview(other)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      queue: { dueJobs: 0, running: 0, oldestDueSeconds: null },
      failuresLastHour: { datasourcesInError: 0, webhookDeliveriesFailed: 0, modelCallFailures: 0 },
      modelLatency: { answers: 0, p50Ms: null, p95Ms: null },
      tokensToday: { prompt: 0, completion: 0, day: new Date().toISOString().slice(0, 10) },
      model: { status: 'up' },
    })
    // this process's database: the embedded one in its own thread (issue 28), or PostgreSQL
    expect(res.json.database).toEqual(
      process.env.TEST_DATABASE === 'postgres' ? { kind: 'postgres', thread: false, statementsWaiting: null } : { kind: 'pglite', thread: true, statementsWaiting: expect.any(Number) },
    )
  })

  test('a queued datasource is a due job, with its wait', async () => {
    await queueWebPage(tenant, 'http://127.0.0.1:1/private-page')
    const { queue } = (await overview(tenant)).json
    expect(queue.dueJobs).toBe(1)
    expect(queue.oldestDueSeconds).toBeGreaterThanOrEqual(0)
  })

  test('after the sync fails, a failed delivery and a failed answer: each counted in the last hour', async () => {
    const hook = await call(webhooks.POST, '/api/webhooks', { method: 'POST', headers: tenant.headers, body: { url: 'http://127.0.0.1:1/hook', events: ['datasource.failed'] } })
    expect(hook.status).toBe(201)
    await drainQueue()
    await drainWebhooks()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error', status: 500 })
    await queryAgentVia(agent.id, { query: 'Will this fail?' }, tenant.headers)
    const { queue, failuresLastHour } = (await overview(tenant)).json
    expect(queue.dueJobs).toBe(0)
    expect(failuresLastHour).toEqual({ datasourcesInError: 1, datasourcesInErrorTotal: 1, webhookDeliveriesFailed: 1, modelCallFailures: 1 })
  })

  test("answers give the latency's p50 and p95 and today's tokens; another organization's are not counted", async () => {
    model.fake.setBehaviour({ reply: 'Two years.', delayMs: 0 })
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'The kettle warranty is two years.' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    for (let i = 0; i < 4; i++) expect((await queryAgentVia(agent.id, { query: 'How long is the warranty?' }, tenant.headers)).status).toBe(200)
    const { modelLatency, tokensToday } = (await overview(tenant)).json
    expect(modelLatency.answers).toBe(4)
    expect(modelLatency.p50Ms).toBeGreaterThan(0)
    expect(modelLatency.p95Ms).toBeGreaterThanOrEqual(modelLatency.p50Ms)
    expect(tokensToday.prompt).toBe(4 * 42)
    expect(tokensToday.completion).toBe(4 * 'Two years.'.length)
    const theirs = (await overview(other)).json
    expect(theirs.modelLatency.answers).toBe(0)
    expect(theirs.tokensToday.prompt).toBe(0)
  })

  test('a key without the admin scope is refused', async () => {
    const { secret } = await createApiKey(tenant.ctx, 'reader', generateApiKeySecret(), { scopes: ['agents:read'] })
    expect((await call(system.GET, '/api/system', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(403)
  })
})
