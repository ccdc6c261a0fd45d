import { describe, expect, test } from 'vitest'
import * as answer from '@/app/api/gaps/answer/route'
import * as dismiss from '@/app/api/gaps/dismiss/route'
import * as gaps from '@/app/api/gaps/route'
import { getPrisma } from '@/lib/db/client'
import { groupBySimilarQuestion, normaliseQuestion } from '@/lib/gaps/grouping'
import { call } from './helpers/http'
import { seedAgent, seedConversation } from './helpers/seed-conversations'
import { createTenant } from './helpers/tenants'

describe('grouping similar questions', () => {
  test('normalising drops case, accents, punctuation and filler words', () => {
    expect(normaliseQuestion('  Hi! What is the   Refund policy, please?? ')).toBe('what is refund policy')
    expect(normaliseQuestion('Où est le café ?')).toBe('ou est le cafe')
  })

  test('near-identical questions share a group; different ones do not', () => {
    const groups = groupBySimilarQuestion([
      { question: 'What is the refund policy?' },
      { question: 'what is your refund policy' },
      { question: 'Refund policy please' },
      { question: 'How do I reset my password?' },
    ])
    expect(groups.map(g => g.items.length)).toEqual([3, 1])
    expect(groups[1].key).toBe('how do reset my password')
  })
})

describe('the knowledge-gap queue', () => {
  test('holds no-source and weak answers and answers voted down, grouped, and not the good ones', async () => {
    const tenant = await createTenant()
    const org = tenant.ctx.organizationId
    const agent = await seedAgent(org)
    const a = await seedConversation(org, agent.id, { messages: [{ role: 'user', text: 'What is the refund policy?' }, { role: 'assistant', text: 'I do not know.', noSources: true }] })
    const b = await seedConversation(org, agent.id, { messages: [{ role: 'user', text: 'what is your refund policy' }, { role: 'assistant', text: 'Maybe 30 days?', topScore: 0.1 }] })
    const c = await seedConversation(org, agent.id, { messages: [{ role: 'user', text: 'Do you ship to Mars?' }, { role: 'assistant', text: 'Yes.', topScore: 0.9, votes: ['bad'], comment: 'We do not' }] })
    await seedConversation(org, agent.id, { messages: [{ role: 'user', text: 'Kettle warranty?' }, { role: 'assistant', text: 'Two years.', topScore: 0.9, votes: ['good'] }] })
    const stranger = (await createTenant()).ctx.organizationId
    await seedConversation(stranger, (await seedAgent(stranger)).id, { messages: [{ role: 'user', text: 'Refund policy?' }, { role: 'assistant', text: '?', noSources: true }] })
    const res = await call(gaps.GET, '/api/gaps', { headers: tenant.headers })
    expect(res.status).toBe(200)
    const groups = res.json
    expect(groups).toHaveLength(2)
    const refund = groups.find((g: any) => g.key.includes('refund'))
    expect(refund.messageIds.sort()).toEqual([a.messageIds[1], b.messageIds[1]].sort())
    expect(refund.reasons).toEqual({ noSources: 1, weak: 1, votedDown: 0 })
    const mars = groups.find((g: any) => g.key.includes('mars'))
    expect(mars.messageIds).toEqual([c.messageIds[1]])
    expect(mars.items[0]).toMatchObject({ question: 'Do you ship to Mars?', badVotes: 1, comments: ['We do not'] })
  })

  test('dismiss takes a group out of the queue; another organization cannot', async () => {
    const tenant = await createTenant()
    const other = await createTenant()
    const agent = await seedAgent(tenant.ctx.organizationId)
    const a = await seedConversation(tenant.ctx.organizationId, agent.id, { messages: [{ role: 'user', text: 'Opening hours?' }, { role: 'assistant', text: '?', noSources: true }] })
    const ids = [a.messageIds[1]]
    expect((await call(dismiss.POST, '/api/gaps/dismiss', { method: 'POST', headers: other.headers, body: { messageIds: ids } })).status).toBe(404)
    const res = await call(dismiss.POST, '/api/gaps/dismiss', { method: 'POST', headers: tenant.headers, body: { messageIds: ids } })
    expect(res.json).toEqual({ resolved: 1 })
    expect((await call(gaps.GET, '/api/gaps', { headers: tenant.headers })).json).toEqual([])
  })

  test('"add an answer" creates a queued text datasource in the chosen datastore and marks the gaps answered', async () => {
    const tenant = await createTenant()
    const org = tenant.ctx.organizationId
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: org, name: 'FAQ' } })
    const agent = await seedAgent(org)
    const a = await seedConversation(org, agent.id, { messages: [{ role: 'user', text: 'Do you ship to Mars?' }, { role: 'assistant', text: '?', noSources: true }] })
    const body = { messageIds: [a.messageIds[1]], datastoreId: store.id, question: 'Do you ship to Mars?', answer: 'No, we ship to Earth only.' }
    const res = await call(answer.POST, '/api/gaps/answer', { method: 'POST', headers: tenant.headers, body })
    expect(res.status).toBe(201)
    expect(res.json.resolved).toBe(1)
    const ds = await prisma.datasource.findUniqueOrThrow({ where: { id: res.json.datasourceId } })
    expect(ds).toMatchObject({ datastoreId: store.id, type: 'text', name: 'Do you ship to Mars?', status: 'pending' })
    const message = await prisma.message.findUniqueOrThrow({ where: { id: a.messageIds[1] } })
    expect(message.gapResolution).toBe('answered')
    expect((await call(gaps.GET, '/api/gaps', { headers: tenant.headers })).json).toEqual([])
    const other = await createTenant()
    expect((await call(answer.POST, '/api/gaps/answer', { method: 'POST', headers: other.headers, body })).status).toBe(404)
  })
})
