import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import { describeQueryError, streamAgentQuery, ChatError } from '@/components/chat/agent-stream'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, seedDatastore, useFakeModel } from './helpers/agents'
import { createTenant, type TestTenant } from './helpers/tenants'

// The dashboard's stream reader (components/chat/agent-stream.ts) against the real query route and the fake model:
// the browser's fetch is replaced by a call of the route handler with the tenant's key.

const model = useFakeModel()

async function waitFor(check: () => boolean, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 20))
  }
}
let tenant: TestTenant

beforeEach(async () => {
  tenant = await createTenant()
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const match = /^\/api\/agents\/([^/]+)\/query$/.exec(String(url))
    if (!match) return realFetch(url, init) // the service's own calls to the model
    const id = match[1]
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${tenant.key}`)
    const req = new Request(`http://localhost${url}`, { ...init, headers })
    return agentQuery.POST(req, { params: Promise.resolve({ id: decodeURIComponent(id) }) })
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the chat stream reader', () => {
  test('gets the answer piece by piece, then the whole answer with its sources and conversation', async () => {
    const { datastoreId } = await seedDatastore(tenant, [{ text: 'The Aurora kettle warranty lasts two years.', name: 'warranty.md' }])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const reply = 'The **Aurora** kettle is covered for two years.\n\n- parts\n- labour'
    model.fake.setBehaviour({ reply, delayMs: 1 })

    const pieces: string[] = []
    const answer = await streamAgentQuery(agent.id, { query: 'kettle warranty?' }, { onAnswer: p => pieces.push(p) })

    expect(pieces.length).toBeGreaterThan(2)
    expect(pieces.join('')).toBe(reply)
    expect(answer.answer).toBe(reply)
    expect(answer.conversationId).toEqual(expect.any(String))
    expect(answer.visitorId).toEqual(expect.any(String))
    expect(answer.sources[0]).toMatchObject({ datasource_name: 'warranty.md', text: 'The Aurora kettle warranty lasts two years.' })
  })

  test('a follow-up sent with the conversation id continues the same conversation', async () => {
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'First answer.', delayMs: 1 })
    const first = await streamAgentQuery(agent.id, { query: 'one?' }, { onAnswer: () => {} })
    model.fake.setBehaviour({ reply: 'Second answer.', delayMs: 1 })
    const second = await streamAgentQuery(agent.id, { query: 'two?', conversationId: first.conversationId, visitorId: first.visitorId }, { onAnswer: () => {} })

    expect(second.conversationId).toBe(first.conversationId)
    const prisma = await getPrisma()
    expect(await prisma.message.count({ where: { conversationId: first.conversationId } })).toBe(4)
    const history = model.fake.chatRequests()[1].messages.map((m: { content: unknown }) => String(m.content))
    expect(history.some((c: string) => c.includes('First answer.'))).toBe(true)
  })

  test('a model failing mid-stream ends in a ChatError that says so, after the pieces already shown', async () => {
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'This answer will be cut in the middle of its text.', mode: 'drop-mid-stream', delayMs: 1 })
    const pieces: string[] = []
    const error = await streamAgentQuery(agent.id, { query: 'hello?' }, { onAnswer: p => pieces.push(p) }).catch(e => e)
    expect(error).toBeInstanceOf(ChatError)
    expect(error.message).toMatch(/^The answer stopped: /)
    expect(pieces.length).toBeGreaterThan(0)
  })

  test('stopping aborts the stream with an AbortError, and the model call is abandoned', async () => {
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'A long answer. '.repeat(40), delayMs: 30 })
    const controller = new AbortController()
    const pieces: string[] = []
    const pending = streamAgentQuery(agent.id, { query: 'long?' }, {
      signal: controller.signal,
      onAnswer: p => {
        pieces.push(p)
        if (pieces.length === 2) controller.abort()
      },
    })
    const error = await pending.catch(e => e)
    expect(error?.name).toBe('AbortError')
    expect(pieces.length).toBe(2)
    await waitFor(() => model.fake.requests.some(r => r.path === '/v1/chat/completions' && (r as { clientClosed?: boolean }).clientClosed === true))
  })

  test('a refusal before the stream (400) is a ChatError with the server’s words', async () => {
    const agent = await createAgentVia(tenant)
    const error = await streamAgentQuery(agent.id, { query: '   ' }, { onAnswer: () => {} }).catch(e => e)
    expect(error).toBeInstanceOf(ChatError)
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/query must not be empty/)
  })

  test('the usage limit (402) is told in words', async () => {
    const agent = await createAgentVia(tenant)
    const prisma = await getPrisma()
    await prisma.usageLimit.create({ data: { organizationId: tenant.ctx.organizationId, maxAgentQueries: 0 } })
    const error = await streamAgentQuery(agent.id, { query: 'hi?' }, { onAnswer: () => {} }).catch(e => e)
    expect(error).toBeInstanceOf(ChatError)
    expect(error.status).toBe(402)
    expect(error.message).toMatch(/usage limit is reached/)
  })
})

describe('the words for errors before the stream', () => {
  test('429 says when to try again, from Retry-After', () => {
    expect(describeQueryError(429, 'Too many requests', '7')).toBe('Too many questions in a short time. Try again in 7 seconds.')
    expect(describeQueryError(429, undefined, null)).toBe('Too many questions in a short time. Try again in a moment.')
  })

  test('503 says no model is available, with the server’s reason', () => {
    expect(describeQueryError(503, 'No chat model is configured', null)).toBe('No model is available to answer right now. No chat model is configured.')
  })

  test('an unknown or private agent is "not available"', () => {
    expect(describeQueryError(404, 'Agent not found', null)).toBe('This agent is not available.')
    expect(describeQueryError(401, 'Unauthorized', null)).toBe('This agent is not available.')
  })
})
