// Issue 27: with OTEL_EXPORTER_OTLP_ENDPOINT set, the agent query and the sync job send OpenTelemetry spans over
// OTLP/HTTP (JSON) — here to a receiver on 127.0.0.1 the test runs — with the expected names and parent links:
// agent.query → agent.retrieval → search.rerank, agent.query → agent.model_call → agent.tool_call;
// sync.run → sync.job → sync.fetch, sync.parse, sync.chunk; sync.run → sync.embed, sync.write.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ROUTE_MODULES } from '@/app/api/registry'
import { directDispatcher } from '@/lib/api/direct-dispatch'
import { tracing } from '@/lib/tracing/spans'
import { startTracing, stopTracing } from '@/lib/tracing/start'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { startFakeReranker, type FakeReranker } from '../helpers/fake-reranker'
import { upsertedDatastore } from '../helpers/retrieval'
import { createTenant } from '../helpers/tenants'
import { startOrderApi } from '../helpers/tool-servers'

interface ReceivedSpan {
  name: string
  traceId: string
  spanId: string
  parentSpanId?: string
  service: string
}

const received: ReceivedSpan[] = []
let receiver: http.Server
let reranker: FakeReranker
let orders: Awaited<ReturnType<typeof startOrderApi>>
const model = useFakeModel()

/** An OTLP/HTTP receiver: POST /v1/traces with the JSON encoding of ExportTraceServiceRequest. */
async function startReceiver(): Promise<string> {
  receiver = http.createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) return res.writeHead(415).end()
    for (const rs of JSON.parse(body).resourceSpans ?? []) {
      const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue
      for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) received.push({ name: s.name, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, service })
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
}

beforeAll(async () => {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = await startReceiver()
  process.env.OTEL_SERVICE_NAME = 'ads-under-test'
  reranker = await startFakeReranker()
  orders = await startOrderApi()
  Object.assign(process.env, { RERANK_BASE_URL: reranker.baseURL, TOOLS_ALLOW_PRIVATE_HOSTS: '1' })
  expect(await startTracing()).toBe(true)
})

afterAll(async () => {
  await stopTracing()
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME', 'RERANK_BASE_URL', 'TOOLS_ALLOW_PRIVATE_HOSTS']) delete process.env[name]
  await Promise.all([reranker.close(), orders.close(), new Promise(resolve => receiver.close(resolve))])
})

const named = (name: string) => received.filter(s => s.name === name)
const one = (name: string, traceId?: string) => {
  const found = named(name).filter(s => !traceId || s.traceId === traceId)
  expect(found.length, `spans named ${name}`).toBeGreaterThanOrEqual(1)
  return found[0]
}
const childOf = (child: ReceivedSpan, parent: ReceivedSpan) => {
  expect(child.traceId, `${child.name} in the trace of ${parent.name}`).toBe(parent.traceId)
  expect(child.parentSpanId, `${child.name} a child of ${parent.name}`).toBe(parent.spanId)
}

async function flushed() {
  await tracing()!.flush()
}

describe('traces', () => {
  test('a sync: sync.run holds the job (fetch, parse, chunk), the embeddings and the write', async () => {
    const tenant = await createTenant()
    await upsertedDatastore(tenant, [{ text: 'The Aurora kettle has a two-year warranty.', name: 'warranty.md' }])
    await flushed()
    const run = one('sync.run')
    expect(run.parentSpanId).toBeUndefined()
    expect(run.service).toBe('ads-under-test')
    const job = one('sync.job', run.traceId)
    childOf(job, run)
    for (const step of ['sync.fetch', 'sync.parse', 'sync.chunk']) childOf(one(step, run.traceId), job)
    for (const step of ['sync.embed', 'sync.write']) childOf(one(step, run.traceId), run)
  })

  test('an agent query: agent.query holds the retrieval (with the rerank) and the model call (with the tool call)', async () => {
    const tenant = await createTenant()
    const datastoreId = await upsertedDatastore(tenant, [{ text: 'Orders ship within two days.', name: 'shipping.md' }])
    const tools = [{ type: 'http', name: 'get_order', description: 'The status of an order', method: 'GET', url: `${orders.url}/orders/{orderId}`, parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } }]
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId], tools })
    model.fake.setBehaviour({ toolCalls: [{ name: 'get_order', arguments: { orderId: 'A17' } }], replyFromTools: true, delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'When does order A17 ship?' }, tenant.headers)
    expect(res.status).toBe(200)
    expect(orders.seen).toHaveLength(1)
    await flushed()
    const query = one('agent.query')
    const retrieval = one('agent.retrieval', query.traceId)
    childOf(retrieval, query)
    childOf(one('search.rerank', query.traceId), retrieval)
    const modelCall = one('agent.model_call', query.traceId)
    childOf(modelCall, query)
    childOf(one('agent.tool_call', query.traceId), modelCall)
  })

  test('a streamed answer: its model call is a child of its query span too', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const before = named('agent.query').length
    const res = await queryAgentVia(agent.id, { query: 'Hello?', streaming: true }, tenant.headers)
    expect(res.status).toBe(200)
    await flushed()
    const query = named('agent.query')[before]
    childOf(one('agent.model_call', query.traceId), query)
  })

  test("a request as `npm start` serves it: the caller's trace continues, the request's span holds agent.query", async () => {
    const dispatch = directDispatcher(ROUTE_MODULES)
    const server = http.createServer((req, res) => void (dispatch(req, res, 'http://127.0.0.1') || res.writeHead(404).end()))
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    try {
      const tenant = await createTenant()
      const agent = await createAgentVia(tenant)
      const [traceId, callerSpan] = ['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7']
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agents/${agent.id}/query`, {
        method: 'POST',
        headers: { ...tenant.headers, 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpan}-01` },
        body: JSON.stringify({ query: 'Hello?', streaming: true }),
      })
      expect(res.status).toBe(200)
      await res.text()
      await flushed()
      const request = one('POST /api/agents/{id}/query', traceId)
      expect(request.parentSpanId).toBe(callerSpan)
      childOf(one('agent.query', traceId), request)
    } finally {
      await new Promise(resolve => server.close(resolve))
    }
  })
})
