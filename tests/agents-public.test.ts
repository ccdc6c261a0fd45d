import { beforeEach, describe, expect, test } from 'vitest'
import { APPEARANCE_DEFAULTS } from '@/lib/agents/appearance'
import { getPrisma } from '@/lib/db/client'
import { clientAddress } from '@/lib/http/route'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { SlidingWindowLimiter } from '@/lib/rate-limit/sliding-window'
import { createAgentVia, getAgentVia, parseSse, queryAgentVia, useFakeModel } from './helpers/agents'
import { expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

const model = useFakeModel()
beforeEach(() => resetPublicQueryLimits())

describe('public agents', () => {
  test('a public agent answers without a key, and the conversation belongs to its organization', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    model.fake.setBehaviour({ reply: 'Hello, stranger.' })

    const res = await queryAgentVia(agent.id, { query: 'Hi!' }, { 'x-forwarded-for': '203.0.113.7' })

    expect(res.status).toBe(200)
    expect(res.json.answer).toBe('Hello, stranger.')
    const prisma = await getPrisma()
    const conversation = await prisma.conversation.findUniqueOrThrow({ where: { id: res.json.conversationId } })
    expect(conversation).toMatchObject({ organizationId: owner.ctx.organizationId, agentId: agent.id, channel: 'website' })
    const usage = await prisma.usage.findFirstOrThrow({ where: { organizationId: owner.ctx.organizationId } })
    expect(usage.agentQueries).toBe(1)
  })

  test('a public agent streams without a key', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    model.fake.setBehaviour({ reply: 'Streaming to anyone.', delayMs: 1 })
    const res = await queryAgentVia(agent.id, { query: 'Hi!', streaming: true })
    expect(parseSse(res.text).answer).toBe('Streaming to anyone.')
  })

  test('a private agent answers 401 without a key, like an unknown id', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner)
    for (const id of [agent.id, 'agent_unknown']) {
      const res = await queryAgentVia(id, { query: 'Hi!' })
      expect(res.status, id).toBe(401)
      expectErrorBody(res.json, 'unauthorized')
      expect((await getAgentVia(id)).status).toBe(401)
    }
    expect(model.fake.chatRequests()).toHaveLength(0)
  })

  test("a private agent of another organization is a 404 with a key", async () => {
    const owner = await createTenant()
    const stranger = await createTenant()
    const agent = await createAgentVia(owner)
    const res = await queryAgentVia(agent.id, { query: 'Hi!' }, stranger.headers)
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
  })

  test('a public agent shows only its name and description without a key', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public', description: 'Ask me', systemPrompt: 'secret instructions' })
    const res = await getAgentVia(agent.id)
    expect(res.status).toBe(200)
    // and its public face (issue 14), which the chat page and the bubble wear
    expect(res.json).toEqual({ id: agent.id, name: 'Helper', description: 'Ask me', visibility: 'public', appearance: APPEARANCE_DEFAULTS, requireSignedVisitors: false })
  })

  test('public queries are rate-limited per address with 429 and Retry-After', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '3'
    try {
      const from = (ip: string, visitorId?: string) => queryAgentVia(agent.id, { query: 'Hi', visitorId }, { 'x-forwarded-for': ip })
      for (let i = 0; i < 3; i++) expect((await from('198.51.100.1', `v${i}`)).status).toBe(200)
      const limited = await from('198.51.100.1', 'v-new')
      expect(limited.status).toBe(429)
      expectErrorBody(limited.json, 'rate_limited')
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(60)
      // another address is not affected
      expect((await from('198.51.100.2')).status).toBe(200)
    } finally {
      delete process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE
    }
  })

  test('public queries are rate-limited per visitor, whatever the address', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '2'
    try {
      const asVisitor = (ip: string) => queryAgentVia(agent.id, { query: 'Hi', visitorId: 'roaming-visitor' }, { 'x-forwarded-for': ip })
      expect((await asVisitor('192.0.2.1')).status).toBe(200)
      expect((await asVisitor('192.0.2.2')).status).toBe(200)
      const limited = await asVisitor('192.0.2.3')
      expect(limited.status).toBe(429)
      expect(limited.headers.get('retry-after')).toBeTruthy()
    } finally {
      delete process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE
    }
  })

  test('the organization’s own key is not rate-limited', async () => {
    const owner = await createTenant()
    const agent = await createAgentVia(owner, { visibility: 'public' })
    process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE = '1'
    try {
      for (let i = 0; i < 3; i++) expect((await queryAgentVia(agent.id, { query: 'Hi' }, owner.headers)).status).toBe(200)
    } finally {
      delete process.env.LIMIT_PUBLIC_QUERIES_PER_MINUTE
    }
  })
})

describe('the client address', () => {
  test('is the entry the nearest proxy appended to X-Forwarded-For, not one the client made up', () => {
    const req = (headers: Record<string, string>) => new Request('http://localhost/', { headers })
    expect(clientAddress(req({ 'x-forwarded-for': '6.6.6.6, 198.51.100.1' }))).toBe('198.51.100.1')
    expect(clientAddress(req({ 'x-forwarded-for': '198.51.100.2' }))).toBe('198.51.100.2')
    expect(clientAddress(req({ 'x-real-ip': '198.51.100.3' }))).toBe('198.51.100.3')
    expect(clientAddress(req({}))).toBe('unknown')
  })
})

describe('the sliding window', () => {
  test('hits expire after the window, and Retry-After says when the oldest one does', () => {
    const limiter = new SlidingWindowLimiter(60_000)
    expect(limiter.hit(['k'], 2, 0).allowed).toBe(true)
    expect(limiter.hit(['k'], 2, 10_000).allowed).toBe(true)
    expect(limiter.hit(['k'], 2, 20_000)).toEqual({ allowed: false, retryAfterSeconds: 40 })
    expect(limiter.hit(['k'], 2, 60_001).allowed).toBe(true)
  })

  test('a refused hit counts for none of its keys', () => {
    const limiter = new SlidingWindowLimiter(60_000)
    limiter.hit(['ip:1'], 1, 0)
    expect(limiter.hit(['ip:1', 'visitor:a'], 1, 1).allowed).toBe(false)
    expect(limiter.hit(['ip:2', 'visitor:a'], 1, 2).allowed).toBe(true)
  })
})
