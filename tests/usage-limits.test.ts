import { describe, expect, test } from 'vitest'
import * as usageRoute from '@/app/api/usage/route'
import { getPrisma } from '@/lib/db/client'
import { agentQueryInStatement, usageMonth } from '@/lib/usage/agent-queries'
import { createAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

const model = useFakeModel()

async function limitAgentQueries(tenant: TestTenant, maxAgentQueries: number) {
  const prisma = await getPrisma()
  await prisma.usageLimit.create({ data: { organizationId: tenant.ctx.organizationId, maxAgentQueries } })
}

describe('agent query usage', () => {
  test('the month is the UTC calendar month', () => {
    expect(usageMonth(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11')
    expect(usageMonth(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12')
  })

  test('each answered query counts once for the organization and the month, with its tokens', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'ok' })
    await queryAgentVia(agent.id, { query: 'one' }, tenant.headers)
    await queryAgentVia(agent.id, { query: 'two', streaming: true }, tenant.headers)
    const res = await call(usageRoute.GET, '/api/usage', { headers: tenant.headers })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      month: usageMonth(),
      agentQueries: { used: 2, limit: 10_000 },
      storedTokens: { used: 0, limit: 10_000_000 },
      modelTokens: { prompt: 84, completion: 4 },
    })
  })

  test('with the limit reached, a streaming query gets a 402 JSON error and no stream, and the model is not called', async () => {
    const tenant = await createTenant()
    await limitAgentQueries(tenant, 1)
    const agent = await createAgentVia(tenant)
    expect((await queryAgentVia(agent.id, { query: 'first' }, tenant.headers)).status).toBe(200)
    model.fake.reset()

    const res = await queryAgentVia(agent.id, { query: 'second', streaming: true }, tenant.headers)

    expect(res.status).toBe(402)
    expect(res.headers.get('content-type')).toContain('application/json')
    expectErrorBody(res.json, 'usage_limit_reached')
    expect(res.text).not.toContain('event:')
    expect(model.fake.chatRequests()).toHaveLength(0)
    const plain = await queryAgentVia(agent.id, { query: 'third' }, tenant.headers)
    expect(plain.status).toBe(402)
  })

  test('a refused query creates no conversation', async () => {
    const tenant = await createTenant()
    await limitAgentQueries(tenant, 0)
    const agent = await createAgentVia(tenant)
    const res = await queryAgentVia(agent.id, { query: 'nothing' }, tenant.headers)
    expect(res.status).toBe(402)
    const prisma = await getPrisma()
    expect(await prisma.conversation.count({ where: { agentId: agent.id } })).toBe(0)
  })

  test('a query is counted by the statement that stores its question: refused there, it writes and counts nothing; the organization then reserves first until its limit is raised', async () => {
    const tenant = await createTenant()
    await limitAgentQueries(tenant, 1)
    const agent = await createAgentVia(tenant)
    const prisma = await getPrisma()
    const organizationId = tenant.ctx.organizationId
    const written = async () => ({
      visitors: await prisma.visitor.count({ where: { organizationId } }),
      conversations: await prisma.conversation.count({ where: { agentId: agent.id } }),
      messages: await prisma.message.count({ where: { conversation: { agentId: agent.id } } }),
      used: (await prisma.usage.findUnique({ where: { organizationId_month: { organizationId, month: usageMonth() } } }))?.agentQueries ?? 0,
    })
    expect(agentQueryInStatement(organizationId)).not.toBeNull()
    expect((await queryAgentVia(agent.id, { query: 'first', visitorId: 'visitor-1' }, tenant.headers)).status).toBe(200)
    const before = await written()
    expect(before).toEqual({ visitors: 1, conversations: 1, messages: 2, used: 1 })
    // a new visitor and conversation would be written with the question: refused, none is
    const refused = await queryAgentVia(agent.id, { query: 'second', visitorId: 'visitor-2' }, tenant.headers)
    expect(refused.status).toBe(402)
    expectErrorBody(refused.json, 'usage_limit_reached')
    expect(await written()).toEqual(before)
    // seen at its limit: the next queries of the month reserve on their own first (a refused one starts nothing)
    expect(agentQueryInStatement(organizationId)).toBeNull()
    expect((await queryAgentVia(agent.id, { query: 'third' }, tenant.headers)).status).toBe(402)
    await prisma.usageLimit.update({ where: { organizationId }, data: { maxAgentQueries: 3 } })
    expect((await queryAgentVia(agent.id, { query: 'fourth' }, tenant.headers)).status).toBe(200)
    expect(agentQueryInStatement(organizationId)).not.toBeNull()
    expect((await queryAgentVia(agent.id, { query: 'fifth' }, tenant.headers)).status).toBe(200)
    expect((await written()).used).toBe(3)
    // counted in the statement that then finds another organization's visitor (404): the count is given back
    const other = await createTenant()
    const otherAgent = await createAgentVia(other)
    expect((await queryAgentVia(otherAgent.id, { query: 'theirs', visitorId: 'their-visitor' }, other.headers)).status).toBe(200)
    await prisma.usageLimit.update({ where: { organizationId }, data: { maxAgentQueries: 10 } })
    expect((await queryAgentVia(agent.id, { query: 'as them', visitorId: 'their-visitor' }, tenant.headers)).status).toBe(404)
    expect((await written()).used).toBe(3)
  })

  test('LIMIT_AGENT_QUERIES applies when the organization has no limit of its own', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    process.env.LIMIT_AGENT_QUERIES = '1'
    try {
      expect((await queryAgentVia(agent.id, { query: 'a' }, tenant.headers)).status).toBe(200)
      expect((await queryAgentVia(agent.id, { query: 'b' }, tenant.headers)).status).toBe(402)
      const usage = await call(usageRoute.GET, '/api/usage', { headers: tenant.headers })
      expect(usage.json.agentQueries).toEqual({ used: 1, limit: 1 })
    } finally {
      delete process.env.LIMIT_AGENT_QUERIES
    }
  })

  test('20 concurrent queries against a limit of 10 let exactly 10 through', async () => {
    const tenant = await createTenant()
    await limitAgentQueries(tenant, 10)
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'ok', delayMs: 1 })

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => queryAgentVia(agent.id, { query: `question ${i}`, streaming: i % 2 === 0 }, tenant.headers)),
    )

    const statuses = results.map(r => r.status)
    expect(statuses.filter(s => s === 200)).toHaveLength(10)
    expect(statuses.filter(s => s === 402)).toHaveLength(10)
    expect(model.fake.chatRequests()).toHaveLength(10)
    const prisma = await getPrisma()
    const usage = await prisma.usage.findUniqueOrThrow({
      where: { organizationId_month: { organizationId: tenant.ctx.organizationId, month: usageMonth() } },
    })
    expect(usage.agentQueries).toBe(10)
  })

  test('a query the model failed to answer is given back', async () => {
    const tenant = await createTenant()
    await limitAgentQueries(tenant, 1)
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error' })
    expect((await queryAgentVia(agent.id, { query: 'fails' }, tenant.headers)).status).toBe(502)
    model.fake.setBehaviour({ reply: 'works' })
    expect((await queryAgentVia(agent.id, { query: 'works' }, tenant.headers)).status).toBe(200)
  })

  test('GET /api/usage needs a key and shows only the caller’s organization', async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agent = await createAgentVia(a)
    await queryAgentVia(agent.id, { query: 'a' }, a.headers)
    expect((await call(usageRoute.GET, '/api/usage')).status).toBe(401)
    const other = await call(usageRoute.GET, '/api/usage', { headers: b.headers })
    expect(other.json.agentQueries.used).toBe(0)
  })

  test('stored tokens are the sum over the organization’s datasources', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'd' } })
    for (const nbTokens of [120, 30]) {
      await prisma.datasource.create({
        data: { organizationId: tenant.ctx.organizationId, datastoreId: store.id, type: 'text', name: 'x', nbTokens },
      })
    }
    const res = await call(usageRoute.GET, '/api/usage', { headers: tenant.headers })
    expect(res.json.storedTokens.used).toBe(150)
  })
})
