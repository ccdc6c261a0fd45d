import net from 'node:net'
import { beforeEach, describe, expect, test } from 'vitest'
import { VISITOR_APOLOGY } from '@/lib/agents/model-failure'
import { modelFailureNotice, modelHealth } from '@/lib/agents/model-health'
import { getPrisma } from '@/lib/db/client'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from './helpers/agents'
import { createTenant } from './helpers/tenants'

// Issue 22, point 9: a model failure is told as what it is (timeout, refused, HTTP status, dropped stream,
// unparsable) to the operator — the log, the playground and API callers with a key, /api/health — while a visitor of
// a public agent reads a plain apology, never "check OPENAI_BASE_URL".

const model = useFakeModel()
beforeEach(() => {
  resetPublicQueryLimits()
  model.fake.setBehaviour({})
})

async function storedError(conversationId: string) {
  const prisma = await getPrisma()
  const answer = await prisma.message.findFirstOrThrow({ where: { conversationId, role: 'assistant' } })
  return answer.error
}

describe('model failures are told truthfully to operators', () => {
  test('an HTTP 500 from the model names the status, not "not an OpenAI-compatible chat completion"', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    for (const streaming of [false, true]) {
      model.fake.setBehaviour({ mode: 'error', status: 500 })
      const res = await queryAgentVia(agent.id, { query: 'Hi', streaming }, tenant.headers)
      const message = streaming ? parseSse(res.text).events.find(e => e.type === 'error')!.message : res.json.error.message
      expect(message).toContain('HTTP 500')
      expect(message).not.toContain('not an OpenAI-compatible')
    }
    expect(modelHealth().lastFailure?.cause).toEqual({ type: 'http_status', status: 500 })
  })

  test('a stream that drops mid-answer says the connection broke off', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'This answer will be cut in the middle of its sentence, sadly.', mode: 'drop-mid-stream', delayMs: 1 })
    const res = await queryAgentVia(agent.id, { query: 'Go', streaming: true }, tenant.headers)
    const error = parseSse(res.text).events.find(e => e.type === 'error')!
    expect(error.message).toContain('broke off')
    expect(error.message).not.toContain('OPENAI_BASE_URL')
    expect(modelHealth().lastFailure?.cause).toEqual({ type: 'dropped_stream' })
  })

  test('a 200 that is no chat completion is unparsable, and says to check OPENAI_BASE_URL', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'garbage' })
    const res = await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
    expect(res.status).toBe(502)
    expect(res.json.error.message).toContain('not an OpenAI-compatible chat completion')
    expect(modelHealth().lastFailure?.cause).toEqual({ type: 'unparsable' })
  })

  test('a model server that refuses connections is "could not be reached"', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    // a port that was just free: nothing listens on it
    const port = await new Promise<number>(resolve => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo
        s.close(() => resolve(port))
      })
    })
    const before = process.env.OPENAI_BASE_URL
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${port}/v1`
    try {
      const res = await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
      expect(res.status).toBe(502)
      expect(res.json.error.message).toContain('could not be reached')
      expect(modelHealth().lastFailure?.cause).toEqual({ type: 'refused' })
    } finally {
      process.env.OPENAI_BASE_URL = before
    }
  })

  test('a model that stays silent is a timeout', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'hang' })
    process.env.AGENT_MODEL_TIMEOUT_SECONDS = '1'
    try {
      const res = await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
      expect(res.status).toBe(504)
      expect(modelHealth().lastFailure?.cause).toEqual({ type: 'timeout' })
    } finally {
      delete process.env.AGENT_MODEL_TIMEOUT_SECONDS
    }
  })
})

describe('the dashboard banner', () => {
  test("the dashboard's notice names the cause of the model's last failure, until an answer succeeds", async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error', status: 503 })
    await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
    expect(modelFailureNotice()).toMatch(/^The model's last answer failed \(\d\d:\d\d UTC, HTTP 503\): The model failed: the model server had an error \(HTTP 503\)/)
    model.fake.setBehaviour({ reply: 'Back.' })
    await new Promise(resolve => setTimeout(resolve, 5))
    expect((await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)).status).toBe(200)
    expect(modelFailureNotice()).toBeNull()
  })
})

describe('visitors read a plain apology', () => {
  test('a key-less visitor gets the apology in JSON and in the stream; the stored answer keeps the cause', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    model.fake.setBehaviour({ mode: 'garbage' })
    const json = await queryAgentVia(agent.id, { query: 'Hi' })
    expect(json.status).toBe(502)
    expect(json.json.error.message).toBe(VISITOR_APOLOGY)
    expect(json.text).not.toContain('OPENAI_BASE_URL')
    const stream = await queryAgentVia(agent.id, { query: 'Hi', streaming: true })
    expect(parseSse(stream.text).events.find(e => e.type === 'error')!.message).toBe(VISITOR_APOLOGY)
    const prisma = await getPrisma()
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { agentId: agent.id } })
    expect(await storedError(conversation.id)).toContain('OPENAI_BASE_URL')
  })

  test("a key-less read of the conversation shows the apology, the organization's the cause", async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    model.fake.setBehaviour({ mode: 'error', status: 500 })
    const stream = await queryAgentVia(agent.id, { query: 'Hi', streaming: true })
    expect(stream.status).toBe(200)
    const prisma = await getPrisma()
    const conversation = await prisma.conversation.findFirstOrThrow({ where: { agentId: agent.id } })
    const { call } = await import('./helpers/http')
    const read = await import('@/app/api/conversations/[id]/route')
    const anonymous = await call(read.GET, `/api/conversations/${conversation.id}`, { params: { id: conversation.id } })
    expect(anonymous.json.messages[1].error).toBe(VISITOR_APOLOGY)
    const member = await call(read.GET, `/api/conversations/${conversation.id}`, { headers: owner.headers, params: { id: conversation.id } })
    expect(member.json.messages[1].error).toContain('HTTP 500')
  })
})
