// Issue 28: at most AGENT_MAX_IN_FLIGHT questions in progress in one process; past it a question is refused at once
// with 503, the error body and Retry-After, and a place comes back when an answer ends or its reader goes away.
import { afterEach, describe, expect, test } from 'vitest'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import { questionsInFlight } from '@/lib/agents/admission'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { expectErrorBody } from '../helpers/http'
import { createTenant } from '../helpers/tenants'

const model = useFakeModel()

afterEach(() => {
  delete process.env.AGENT_MAX_IN_FLIGHT
})

async function waitFor(check: () => boolean, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 20))
  }
}

/** A streamed question whose answer is being read (the first piece arrived), and a way to stop reading it. */
async function openStream(agentId: string, headers: Record<string, string>) {
  const req = new Request(`http://localhost/api/agents/${agentId}/query`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'Tell me everything', streaming: true }),
  })
  const res = await agentQuery.POST(req, { params: Promise.resolve({ id: agentId }) })
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  await reader.read()
  return { cancel: () => reader.cancel(), drain: async () => { while (!(await reader.read()).done); } }
}

describe('questions in progress are bounded', () => {
  test('past AGENT_MAX_IN_FLIGHT a question is refused with 503, the error body and Retry-After', async () => {
    process.env.AGENT_MAX_IN_FLIGHT = '2'
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(30), delayMs: 30 })
    const streams = [await openStream(agent.id, tenant.headers), await openStream(agent.id, tenant.headers)]
    expect(questionsInFlight()).toBe(2)

    const refused = await queryAgentVia(agent.id, { query: 'And me?' }, tenant.headers)
    expect(refused.status).toBe(503)
    expectErrorBody(refused.json, 'overloaded')
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(model.fake.requests.filter(r => r.path === '/v1/chat/completions')).toHaveLength(2) // the refused one cost no model call

    await Promise.all(streams.map(s => s.drain()))
    await waitFor(() => questionsInFlight() === 0)
    model.fake.setBehaviour({ reply: 'Now there is room.' })
    const admitted = await queryAgentVia(agent.id, { query: 'And now?' }, tenant.headers)
    expect(admitted.status).toBe(200)
    expect(admitted.json.answer).toBe('Now there is room.')
  })

  test('a reader that goes away gives its place back', async () => {
    process.env.AGENT_MAX_IN_FLIGHT = '1'
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(40), delayMs: 50 })
    const stream = await openStream(agent.id, tenant.headers)
    expect((await queryAgentVia(agent.id, { query: 'Me too' }, tenant.headers)).status).toBe(503)
    await stream.cancel()
    await waitFor(() => questionsInFlight() === 0)
    model.fake.setBehaviour({ reply: 'Your turn.' })
    expect((await queryAgentVia(agent.id, { query: 'Me too' }, tenant.headers)).status).toBe(200)
  })

  test('a question whose model fails gives its place back', async () => {
    process.env.AGENT_MAX_IN_FLIGHT = '1'
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error', status: 500 })
    expect((await queryAgentVia(agent.id, { query: 'Anyone?' }, tenant.headers)).status).toBe(502)
    expect(questionsInFlight()).toBe(0)
    model.fake.setBehaviour({ reply: 'Back again.' })
    expect((await queryAgentVia(agent.id, { query: 'Anyone?' }, tenant.headers)).status).toBe(200)
  })
})
