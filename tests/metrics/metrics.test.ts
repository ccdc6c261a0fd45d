// GET /api/metrics (DESIGN.md §13): Prometheus text for whoever holds METRICS_TOKEN, 404 while it is unset; after
// real traffic it has the request histogram by route template, the model's tokens, datasources by status and the
// process's memory, and no label anywhere holds a resource id.
import { afterEach, describe, expect, test } from 'vitest'
import * as datastoreItem from '@/app/api/datastores/[id]/route'
import * as metricsRoute from '@/app/api/metrics/route'
import { createAgentVia, queryAgentVia, seedDatastore, useFakeModel } from '../helpers/agents'
import { call } from '../helpers/http'
import { createTenant } from '../helpers/tenants'

const TOKEN = 'metrics-token-for-tests-0123'
const model = useFakeModel()

afterEach(() => {
  delete process.env.METRICS_TOKEN
})

const scrape = (authorization?: string) => call(metricsRoute.GET, '/api/metrics', { headers: authorization ? { authorization } : {} })

describe('GET /api/metrics', () => {
  test('is a 404 while METRICS_TOKEN is unset, and a 401 without the token', async () => {
    expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404)
    process.env.METRICS_TOKEN = TOKEN
    expect((await scrape()).status).toBe(401)
    expect((await scrape('Bearer not-the-token-at-all-00')).status).toBe(401)
  })

  test('after real traffic: requests by route template, tokens, datasources by status, memory; no id in any label', async () => {
    process.env.METRICS_TOKEN = TOKEN
    model.fake.setBehaviour({ reply: 'The kettle warranty is two years.', delayMs: 0 })
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'The kettle warranty is two years.' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const ids = [datastoreId, agent.id, tenant.ctx.organizationId]
    for (let i = 0; i < 3; i++) expect((await queryAgentVia(agent.id, { query: 'How long is the warranty?' }, tenant.headers)).status).toBe(200)
    for (let i = 0; i < 5; i++) {
      const missing = `missing${i}datastore`
      ids.push(missing)
      await call(datastoreItem.GET, `/api/datastores/${missing}`, { headers: tenant.headers, params: { id: missing } })
    }

    const res = await scrape(`Bearer ${TOKEN}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = res.text
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/api\/agents\/\{id\}\/query",method="POST",status="2xx"\} [1-9]/)
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/api\/datastores\/\{id\}",method="GET",status="4xx"\} [1-9]/)
    const tokens = /model_tokens_total\{model="[^"]+",kind="prompt"\} (\d+)/.exec(text)
    expect(Number(tokens?.[1])).toBeGreaterThan(0)
    expect(text).toMatch(/agent_query_phase_seconds_count\{phase="answer"\} [1-9]/)
    expect(text).toMatch(/datasources\{status="synched"\} [1-9]/)
    expect(text).toMatch(/process_resident_memory_bytes \d+/)
    // the embedded database's thread (issue 28): what waits on it
    if (process.env.TEST_DATABASE !== 'postgres') expect(text).toMatch(/^database_statements_pending \d+$/m)
    for (const id of ids) expect(text, `a label holds ${id}`).not.toContain(id)
  })

  test('search rankings by source: from statements at first, from memory once the datastore is kept, with what is kept', async () => {
    process.env.METRICS_TOKEN = TOKEN
    model.fake.setBehaviour({ reply: 'Descale monthly.', delayMs: 0 })
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'Descale the espresso machine monthly with citric acid.' }, { text: 'The grinder burrs need a brush.' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const count = (text: string, source: string) => Number(new RegExp(`search_rankings_total\\{kind="words",source="${source}"\\} (\\d+)`).exec(text)?.[1] ?? 0)
    const before = (await scrape(`Bearer ${TOKEN}`)).text
    // the first question ranks with statements and has the postings read in the background; a later one ranks from them
    let after = before
    for (let i = 0; i < 20 && count(after, 'memory') === count(before, 'memory'); i++) {
      expect((await queryAgentVia(agent.id, { query: 'How do I descale the espresso machine?' }, tenant.headers)).status).toBe(200)
      after = (await scrape(`Bearer ${TOKEN}`)).text
    }
    expect(count(after, 'statements')).toBeGreaterThan(count(before, 'statements'))
    expect(count(after, 'memory')).toBeGreaterThan(count(before, 'memory'))
    expect(Number(/^search_memory_kept\{kind="chunks"\} (\d+)$/m.exec(after)?.[1])).toBeGreaterThanOrEqual(2)
  })
})
