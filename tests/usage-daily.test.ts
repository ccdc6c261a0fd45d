import { describe, expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as daily from '@/app/api/usage/daily/route'
import { getPrisma } from '@/lib/db/client'
import { dailyUsage } from '@/lib/usage/daily'
import { call } from './helpers/http'
import { seedAgent, seedConversation } from './helpers/seed-conversations'
import { createTenant } from './helpers/tenants'

const DAY = 86_400_000

describe('usage over time', () => {
  test('questions, votes and tokens per day, per agent and per channel, over 30 days', async () => {
    const tenant = await createTenant()
    const org = tenant.ctx.organizationId
    const support = await seedAgent(org, 'Support')
    const sales = await seedAgent(org, 'Sales')
    const now = new Date('2026-11-26T12:00:00Z')
    const qa = (votes: ('good' | 'bad')[] = []) => [
      { role: 'user' as const, text: 'q' },
      { role: 'assistant' as const, text: 'a', promptTokens: 100, completionTokens: 10, votes },
    ]
    await seedConversation(org, support.id, { channel: 'website', at: new Date(now.getTime() - DAY), messages: [...qa(['good']), ...qa(['bad', 'bad'])] })
    await seedConversation(org, sales.id, { channel: 'api', at: now, messages: qa() })
    await seedConversation(org, sales.id, { channel: 'api', at: new Date(now.getTime() - 40 * DAY), messages: qa() }) // outside the window
    const all = await dailyUsage(tenant.ctx, { days: 30 }, now)
    expect(all.days).toHaveLength(30)
    expect(all.from).toBe('2026-10-28')
    expect(all.to).toBe('2026-11-26')
    expect(all.days.at(-2)).toMatchObject({ day: '2026-11-25', questions: 2, good: 1, bad: 2, promptTokens: 200, completionTokens: 20, datastoreQueries: 0 })
    expect(all.days.at(-1)).toMatchObject({ day: '2026-11-26', questions: 1, good: 0, bad: 0 })
    expect(all.byAgent.map(a => [a.agentName, a.questions])).toEqual([['Support', 2], ['Sales', 1]])
    expect(all.byChannel.map(c => [c.channel, c.questions])).toEqual([['website', 2], ['api', 1]])
    const salesOnly = await dailyUsage(tenant.ctx, { days: 30, agentId: sales.id }, now)
    expect(salesOnly.days.reduce((n, d) => n + d.questions, 0)).toBe(1)
    expect(salesOnly.days[0].datastoreQueries).toBeNull()
    const website = await dailyUsage(tenant.ctx, { days: 30, channel: 'website' }, now)
    expect(website.days.reduce((n, d) => n + d.bad, 0)).toBe(2)
    expect(website.byAgent.map(a => a.agentName)).toEqual(['Support'])
  })

  test('datastore queries are counted per day where the month is counted', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'docs' } })
    for (let i = 0; i < 2; i++) {
      await call(datastoreQuery.POST, `/api/datastores/${store.id}/query`, { method: 'POST', headers: tenant.headers, body: { query: 'kettle' }, params: { id: store.id } })
    }
    const res = await call(daily.GET, '/api/usage/daily?days=7', { headers: tenant.headers })
    expect(res.status).toBe(200)
    expect(res.json.days).toHaveLength(7)
    expect(res.json.days.at(-1).datastoreQueries).toBe(2)
    expect((await call(daily.GET, '/api/usage/daily?days=400', { headers: tenant.headers })).status).toBe(400)
  })
})
