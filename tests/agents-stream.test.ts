import { describe, expect, test } from 'vitest'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import { getPrisma } from '@/lib/db/client'
import { decodeAnswerEvent, encodeAnswerEvent, encodeSseEvent, type AnswerEvent } from '@/lib/domain/answer-events'
import { createParser } from 'eventsource-parser'
import { createAgentVia, parseSse, queryAgentVia, seedDatastore, useFakeModel } from './helpers/agents'
import { expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

const model = useFakeModel()

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 20))
  }
}

describe('the SSE writer', () => {
  test('data with line breaks becomes several data lines that a parser joins back', () => {
    const encoded = encodeSseEvent({ event: 'answer', data: 'line one\nline two\r\n\n  indented' })
    expect(encoded).toBe('event: answer\ndata: line one\ndata: line two\ndata: \ndata:   indented\n\n')
    const seen: string[] = []
    createParser({ onEvent: e => seen.push(e.data) }).feed(encoded)
    expect(seen).toEqual(['line one\nline two\n\n  indented'])
  })

  test('each answer event is written as the spec spells it, and decoded back', () => {
    const answer = { answer: 'Two years.', conversationId: 'c1', visitorId: 'v1', sources: [], messageId: 'm1' }
    const cases: [AnswerEvent, string][] = [
      [{ type: 'answer', text: 'Two\nyears.' }, 'event: answer\ndata: Two\ndata: years.\n\n'],
      [{ type: 'endpoint_response', answer }, `event: endpoint_response\ndata: ${JSON.stringify(answer)}\n\n`],
      [{ type: 'done' }, 'data: [DONE]\n\n'],
      [{ type: 'error', message: 'The model failed' }, 'data: [ERROR] The model failed\n\n'],
    ]
    for (const [event, wire] of cases) {
      expect(encodeAnswerEvent(event)).toBe(wire)
      const decoded: (AnswerEvent | null)[] = []
      createParser({ onEvent: e => decoded.push(decodeAnswerEvent(e)) }).feed(wire)
      expect(decoded).toEqual([event])
    }
  })

  test('an event a client does not know is decoded as nothing, so that it is skipped', () => {
    expect(decodeAnswerEvent({ event: 'lead_captured', data: '{}' })).toBeNull()
    expect(decodeAnswerEvent({ data: 'a plain message' })).toBeNull()
  })
})

describe('a streaming agent query', () => {
  test('answer pieces concatenate to the endpoint_response answer, with sources and ids, then [DONE] last', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'The Aurora kettle warranty lasts two years.', name: 'warranty.md' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const reply = 'The warranty of the Aurora kettle lasts two years from the date of purchase.'
    model.fake.setBehaviour({ reply, delayMs: 1 })

    const res = await queryAgentVia(agent.id, { query: 'kettle warranty?', streaming: true }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const sse = parseSse(res.text)
    expect(sse.events.filter(e => e.type === 'answer').length).toBeGreaterThan(3)
    expect(sse.answer).toBe(reply)
    expect(sse.endpointResponse).toMatchObject({
      answer: reply,
      conversationId: expect.any(String),
      visitorId: expect.any(String),
      messageId: expect.any(String),
    })
    expect(sse.endpointResponse!.sources[0]).toMatchObject({ text: 'The Aurora kettle warranty lasts two years.', datasource_name: 'warranty.md' })
    expect(sse.wire.at(-1)).toEqual({ event: undefined, data: '[DONE]' })
    expect(model.fake.chatRequests()[0].stream).toBe(true)
  })

  test('a reply with newlines survives the stream', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const reply = 'Steps:\n1. Fill the kettle.\n\n2. Switch it on.\r\n3. Wait.\n'
    model.fake.setBehaviour({ reply, delayMs: 1 })
    const res = await queryAgentVia(agent.id, { query: 'How?', streaming: true }, tenant.headers)
    const sse = parseSse(res.text)
    // SSE normalises a CRLF inside data to LF
    expect(sse.answer).toBe(reply.replace(/\r\n/g, '\n'))
    expect(sse.endpointResponse!.answer).toBe(reply)
  })

  test('the streamed answer is stored with its token usage', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'Stored and streamed.', delayMs: 1 })
    const res = await queryAgentVia(agent.id, { query: 'Store it', streaming: true }, tenant.headers)
    const { messageId } = parseSse(res.text).endpointResponse!
    const prisma = await getPrisma()
    const message = await prisma.message.findUniqueOrThrow({ where: { id: messageId } })
    expect(message).toMatchObject({ role: 'assistant', text: 'Stored and streamed.', promptTokens: 42, completionTokens: 20, error: null })
  })

  test('an upstream that drops mid-stream ends the stream with [ERROR], after the pieces already sent', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'This answer will be cut in the middle of its sentence, sadly.', mode: 'drop-mid-stream', delayMs: 1 })
    const res = await queryAgentVia(agent.id, { query: 'Go', streaming: true }, tenant.headers)
    expect(res.status).toBe(200)
    const sse = parseSse(res.text)
    expect(sse.answer.length).toBeGreaterThan(0)
    expect(sse.wire.at(-1)!.data).toMatch(/^\[ERROR\] /)
    expect(sse.events.some(e => e.type === 'done')).toBe(false)
    expect(sse.endpointResponse).toBeUndefined()
  })

  test('an upstream error before the first piece is [ERROR] too, and the query is not counted', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error' })
    const res = await queryAgentVia(agent.id, { query: 'Go', streaming: true }, tenant.headers)
    const sse = parseSse(res.text)
    expect(sse.events).toEqual([{ type: 'error', message: expect.stringMatching(/^The model failed/) }])
    const prisma = await getPrisma()
    const usage = await prisma.usage.findFirst({ where: { organizationId: tenant.ctx.organizationId } })
    expect(usage?.agentQueries).toBe(0)
  })

  test('a model that goes silent mid-stream is stopped by the timeout with [ERROR]', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'This answer stops halfway and never comes back.', mode: 'hang-mid-stream', delayMs: 1 })
    process.env.AGENT_MODEL_TIMEOUT_SECONDS = '1'
    try {
      const res = await queryAgentVia(agent.id, { query: 'Go', streaming: true }, tenant.headers)
      expect(parseSse(res.text).events.at(-1)).toEqual({ type: 'error', message: 'The model did not answer within 1 s' })
    } finally {
      delete process.env.AGENT_MODEL_TIMEOUT_SECONDS
    }
  })

  test('a client that disconnects aborts the model call', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(40), delayMs: 50 })
    const client = new AbortController()
    const req = new Request(`http://localhost/api/agents/${agent.id}/query`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Talk', streaming: true }),
      signal: client.signal,
    })
    const res = await agentQuery.POST(req, { params: Promise.resolve({ id: agent.id }) })
    const reader = res.body!.getReader()
    const first = await reader.read()
    expect(parseSse(new TextDecoder().decode(first.value)).events[0]?.type).toBe('answer')

    client.abort()
    await reader.cancel()

    await waitFor(() => model.fake.requests.some((r: any) => r.clientClosed))
    const prisma = await getPrisma()
    await waitFor(async () => (await prisma.message.count({ where: { conversation: { agentId: agent.id }, role: 'assistant' } })) === 1)
    const stored = await prisma.message.findFirstOrThrow({ where: { conversation: { agentId: agent.id }, role: 'assistant' } })
    expect(stored.error).toBe('Stopped before the answer was complete')
  })

  test('a client that only cancels the response body (no request signal) also aborts the model call', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(40), delayMs: 50 })
    const req = new Request(`http://localhost/api/agents/${agent.id}/query`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Talk', streaming: true }),
    })
    const res = await agentQuery.POST(req, { params: Promise.resolve({ id: agent.id }) })
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel()
    await waitFor(() => model.fake.requests.some((r: any) => r.clientClosed))
  })

  test('errors known before the stream opens are JSON: unknown agent, bad body', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const unknown = await queryAgentVia('agent_unknown', { query: 'Hi', streaming: true }, tenant.headers)
    expect(unknown.status).toBe(404)
    expectErrorBody(unknown.json, 'not_found')
    const bad = await queryAgentVia(agent.id, { query: '', streaming: true }, tenant.headers)
    expect(bad.status).toBe(400)
    expectErrorBody(bad.json, 'invalid_request')
    expect(model.fake.chatRequests()).toHaveLength(0)
  })
})
