// Hardening (issue 6) part 5: concurrency and load on the embedded default (in-memory PGlite here, through the
// route handlers). 50 parallel upserts into one datastore lose no document; 200 concurrent datastore queries and
// 50 concurrent streaming agent queries complete without error (p50/p95 and the rate are printed and saved); the
// agent-query and stored-token limits hold exactly under concurrency.
import { beforeAll, describe, expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as datastores from '@/app/api/datastores/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import * as usage from '@/app/api/usage/route'
import { getPrisma } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from './helpers/agents'
import { percentile, saveFigures } from './helpers/hardening/measure'
import { call } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

const model = useFakeModel()
let tenant: TestTenant
let storeId: string

const TOPICS = ['kettle', 'toaster', 'blender', 'oven', 'fridge', 'freezer', 'dishwasher', 'microwave', 'grill', 'mixer']
const doc = (i: number) =>
  `Document ${i} about the ${TOPICS[i % TOPICS.length]}: its warranty lasts ${1 + (i % 5)} years, descaling is needed every ${2 + (i % 7)} weeks, and part number P-${i * 37} fits it.`

function timings(ms: number[], wallMs: number) {
  return { n: ms.length, p50Ms: Math.round(percentile(ms, 50)), p95Ms: Math.round(percentile(ms, 95)), maxMs: Math.round(Math.max(...ms)), wallMs: Math.round(wallMs), perSecond: Math.round((ms.length / wallMs) * 1000 * 10) / 10 }
}

beforeAll(async () => {
  tenant = await createTenant()
  storeId = (await call(datastores.POST, '/api/datastores', { method: 'POST', headers: tenant.headers, body: { name: 'load' } })).json.id
})

describe('concurrency and load', () => {
  test('50 parallel upserts into one datastore lose no document: every id exists and is synched after the worker drains', async () => {
    const started = performance.now()
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(upsert.POST, `/api/datastores/upsert/${storeId}`, {
          method: 'POST',
          headers: tenant.headers,
          params: { datastoreId: storeId },
          body: { documents: [{ text: doc(2 * i), metadata: { custom_id: `c${i}` } }, { text: doc(2 * i + 1) }] },
        }),
      ),
    )
    const upsertMs = performance.now() - started
    expect(results.map(r => r.status)).toEqual(Array(50).fill(200))
    const ids = results.flatMap(r => r.json.ids as string[])
    expect(new Set(ids).size).toBe(100)
    const drained = performance.now()
    await drainQueue({ concurrency: 2 })
    const drainMs = performance.now() - drained
    const prisma = await getPrisma()
    const rows = await prisma.datasource.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, nbChunks: true } })
    expect(rows.length).toBe(100)
    expect(rows.filter(r => r.status !== 'synched')).toEqual([])
    expect(await prisma.chunk.count({ where: { datastoreId: storeId } })).toBe(rows.reduce((n, r) => n + r.nbChunks, 0))
    saveFigures('hardening-load', { upserts: { parallel: 50, documents: 100, upsertWallMs: Math.round(upsertMs), drainMs: Math.round(drainMs) } })
  }, 120_000)

  test('200 concurrent datastore queries all answer 200 with fragments', async () => {
    const started = performance.now()
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const t = performance.now()
        const res = await call(datastoreQuery.POST, `/api/datastores/${storeId}/query`, {
          method: 'POST',
          headers: tenant.headers,
          params: { id: storeId },
          body: { query: `warranty of the ${TOPICS[i % TOPICS.length]}`, topK: 5 },
        })
        return { res, ms: performance.now() - t }
      }),
    )
    const wall = performance.now() - started
    const failed = results.filter(r => r.res.status !== 200)
    expect(failed.map(f => f.res.text)).toEqual([])
    for (const { res } of results) expect(res.json.length).toBeGreaterThan(0)
    const figures = timings(results.map(r => r.ms), wall)
    console.log(`200 concurrent datastore queries: ${JSON.stringify(figures)}`)
    saveFigures('hardening-load', { datastoreQueries: figures })
  }, 120_000)

  test('50 concurrent streaming agent queries all end with [DONE] and no [ERROR]', async () => {
    // minScore 0: the default floor judges real embeddings; the fake model's hashed ones score low (docs/benchmarks.md)
    const agent = await createAgentVia(tenant, { datastoreIds: [storeId], minScore: 0 })
    model.fake.setBehaviour({ reply: 'The kettle warranty lasts two years, as the documents say.', delayMs: 5 })
    const started = performance.now()
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const t = performance.now()
        const res = await queryAgentVia(agent.id, { query: `How long is the ${TOPICS[i % TOPICS.length]} warranty?`, streaming: true, visitorId: `load-${i}` }, tenant.headers)
        return { res, ms: performance.now() - t }
      }),
    )
    const wall = performance.now() - started
    for (const { res } of results) {
      expect(res.status, res.text).toBe(200)
      const sse = parseSse(res.text)
      expect(sse.events.filter(e => e.type === 'error')).toEqual([])
      expect(sse.events.at(-1)).toEqual({ type: 'done' })
      expect(sse.answer).toBe('The kettle warranty lasts two years, as the documents say.')
      expect(sse.endpointResponse?.sources.length).toBeGreaterThan(0)
    }
    const figures = timings(results.map(r => r.ms), wall)
    console.log(`50 concurrent streaming agent queries: ${JSON.stringify(figures)}`)
    saveFigures('hardening-load', { agentStreams: figures })
  }, 120_000)

  test('the agent-query limit holds exactly: 30 concurrent queries against a limit of 12 give 12 answers and 18 402s', async () => {
    const limited = await createTenant()
    const prisma = await getPrisma()
    await prisma.usageLimit.create({ data: { organizationId: limited.ctx.organizationId, maxAgentQueries: 12 } })
    const agent = await createAgentVia(limited)
    model.fake.setBehaviour({ reply: 'ok', delayMs: 1 })
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => queryAgentVia(agent.id, { query: `question ${i}`, streaming: i % 2 === 0 }, limited.headers)))
    const statuses = results.map(r => r.status).sort()
    expect(statuses.filter(s => s === 200).length).toBe(12)
    expect(statuses.filter(s => s === 402).length).toBe(18)
    for (const r of results.filter(r => r.status === 402)) expect(r.json.error.code).toBe('usage_limit_reached')
    for (const r of results.filter(r => r.status === 200 && r.headers.get('content-type')?.startsWith('text/event-stream'))) expect(parseSse(r.text).events.at(-1)).toEqual({ type: 'done' })
    const report = (await call(usage.GET, '/api/usage', { headers: limited.headers })).json
    expect(report.agentQueries).toEqual({ used: 12, limit: 12 })
    expect(model.fake.chatRequests().length).toBe(12)
  }, 60_000)

  test('the stored-token limit holds exactly when several workers synch at once', async () => {
    const limited = await createTenant()
    const prisma = await getPrisma()
    const store = (await call(datastores.POST, '/api/datastores', { method: 'POST', headers: limited.headers, body: { name: 'limited' } })).json.id
    const texts = Array.from({ length: 20 }, (_, i) => doc(1000 + i))
    const { countTokens } = await import('@/lib/ingest/tokenizer')
    const each = countTokens(texts[0])
    const limit = each * 7 + Math.floor(each / 2)
    await prisma.usageLimit.create({ data: { organizationId: limited.ctx.organizationId, maxStoredTokens: limit } })
    const up = await call(upsert.POST, `/api/datastores/upsert/${store}`, { method: 'POST', headers: limited.headers, params: { datastoreId: store }, body: { documents: texts.map(text => ({ text })) } })
    expect(up.status).toBe(200)
    await drainQueue({ concurrency: 4 })
    const rows = await prisma.datasource.findMany({ where: { datastoreId: store } })
    const stored = rows.reduce((n, r) => n + r.nbTokens, 0)
    expect(stored).toBeLessThanOrEqual(limit)
    expect(rows.filter(r => r.status === 'synched').length).toBeGreaterThanOrEqual(5)
    expect(rows.filter(r => r.status === 'usage_limit_reached').length).toBeGreaterThan(0)
    expect(rows.every(r => r.status === 'synched' || r.status === 'usage_limit_reached')).toBe(true)
    const report = (await call(usage.GET, '/api/usage', { headers: limited.headers })).json
    expect(report.storedTokens.used).toBe(stored)
  }, 60_000)
})
