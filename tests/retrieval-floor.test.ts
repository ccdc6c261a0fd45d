// Issue 13.3: a relevance score comparable across queries, a floor (minScore) on it, and an agent that says it does
// not know when nothing clears its floor.
import { describe, expect, test } from 'vitest'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import { DEFAULT_NO_ANSWER_INSTRUCTION, NO_SOURCES_NOTICE } from '@/lib/agents/prompt'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, getAgentVia, queryAgentVia, sentMessages, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { upsertedDatastore } from './helpers/retrieval'
import { createTenant, type TestTenant } from './helpers/tenants'

const model = useFakeModel()

const DOCS = [
  { text: 'The Zephyr kettle carries a warranty of two years from the date of purchase.', name: 'warranty.md' },
  { text: 'Shipping to Europe takes five working days; shipping is free above 50 euros.', name: 'shipping.md' },
  { text: 'Returns are accepted within thirty days if the product is unused.', name: 'returns.md' },
  { text: 'Our support team answers emails within one working day.', name: 'support.md' },
]
const NONSENSE = 'purple elephants juggling quantum bagels'
const FLOOR = 0.25

const store = (tenant: TestTenant) => upsertedDatastore(tenant, DOCS, 'Help')

const query = (tenant: TestTenant, id: string, body: Record<string, unknown>) =>
  call(datastoreQuery.POST, `/api/datastores/${id}/query`, { method: 'POST', headers: tenant.headers, params: { id }, body })

describe('relevance floor', () => {
  test('scores mean the same across queries: a matching question scores high, a nonsense one low', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const good = await query(tenant, id, { query: 'How long is the warranty of the Zephyr kettle?' })
    const bad = await query(tenant, id, { query: NONSENSE })
    // without a floor, the nearest fragments come back whatever the question (the vector ranking always has some)
    expect(bad.json.length).toBeGreaterThan(0)
    expect(good.json[0].datasource_name).toBe('warranty.md')
    expect(good.json[0].score).toBeGreaterThan(FLOOR)
    for (const f of bad.json) expect(f.score).toBeLessThan(FLOOR)
    // best first
    for (const list of [good.json, bad.json]) for (let i = 1; i < list.length; i++) expect(list[i].score).toBeLessThanOrEqual(list[i - 1].score)
  })

  test('minScore in the datastore query drops the fragments below it', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const all = await query(tenant, id, { query: 'How long is the warranty of the Zephyr kettle?', topK: 4 })
    expect(all.json).toHaveLength(4)
    const floored = await query(tenant, id, { query: 'How long is the warranty of the Zephyr kettle?', topK: 4, minScore: FLOOR })
    expect(floored.json.map((f: { datasource_name: string }) => f.datasource_name)).toEqual(['warranty.md'])
    expect((await query(tenant, id, { query: NONSENSE, minScore: FLOOR })).json).toEqual([])
  })

  test.each([[-0.1], [1.5], ['high']])('minScore %s is a 400', async minScore => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const res = await query(tenant, id, { query: 'kettle', minScore })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })

  test('an agent with a floor answers a nonsense question with "no sources": told so, no fragments, marked', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const agent = await createAgentVia(tenant, { datastoreIds: [id], minScore: FLOOR })
    expect(agent).toMatchObject({ minScore: FLOOR, rewriteQuestions: true, noAnswerMessage: null })
    model.fake.setBehaviour({ answerFromContext: true })

    const res = await queryAgentVia(agent.id, { query: NONSENSE }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.json.sources).toEqual([])
    expect(res.json.answer).toMatch(/I don't know/)
    const system = sentMessages(model.fake.chatRequests()[0]).find(m => m.role === 'system')!.content
    expect(system).toContain(NO_SOURCES_NOTICE)
    expect(system).toContain(DEFAULT_NO_ANSWER_INSTRUCTION)
    const prisma = await getPrisma()
    const stored = await prisma.message.findUniqueOrThrow({ where: { id: res.json.messageId } })
    expect(stored).toMatchObject({ noSources: true, searchQuery: NONSENSE })
    expect(stored.topScore).toBeLessThan(FLOOR)
  })

  test('the same agent answers a real question from its fragments, not marked', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const agent = await createAgentVia(tenant, { datastoreIds: [id], minScore: FLOOR })
    model.fake.setBehaviour({ answerFromContext: true })
    const res = await queryAgentVia(agent.id, { query: 'How long is the Zephyr kettle warranty?' }, tenant.headers)
    expect(res.json.answer).toContain('warranty of two years')
    expect(res.json.sources.map((s: { source: string }) => s.source)).toEqual(['warranty.md'])
    const prisma = await getPrisma()
    expect(await prisma.message.findUniqueOrThrow({ where: { id: res.json.messageId } })).toMatchObject({ noSources: false })
  })

  test('the agent\'s own "I don\'t know" instruction is the one given, and a query may set its own floor', async () => {
    const tenant = await createTenant()
    const id = await store(tenant)
    const agent = await createAgentVia(tenant, { datastoreIds: [id], minScore: 0, noAnswerMessage: 'Say: "Sorry, I can only help with orders." and nothing else.' })
    const read = await getAgentVia(agent.id, tenant.headers)
    expect(read.json).toMatchObject({ minScore: 0, noAnswerMessage: 'Say: "Sorry, I can only help with orders." and nothing else.' })

    // a floor of 0 on the agent: no floor, the nonsense question gets the nearest fragments
    const open = await queryAgentVia(agent.id, { query: NONSENSE }, tenant.headers)
    expect(open.json.sources.length).toBeGreaterThan(0)
    // a floor given with the query
    const floored = await queryAgentVia(agent.id, { query: NONSENSE, minScore: FLOOR }, tenant.headers)
    expect(floored.json.sources).toEqual([])
    const system = sentMessages(model.fake.chatRequests()[1]).find(m => m.role === 'system')!.content
    expect(system).toContain('Sorry, I can only help with orders.')
    expect(system).not.toContain(DEFAULT_NO_ANSWER_INSTRUCTION)
  })

  test('an agent that sets no floor has the default one (issue 22): an unrelated question gets no fragment', async () => {
    const tenant = await createTenant()
    const id = await upsertedDatastore(tenant, [...DOCS, { text: 'Internal: the staff cafeteria door code is 4711.', name: 'internal.md' }], 'Help')
    const agent = await createAgentVia(tenant, { datastoreIds: [id] })
    expect(agent.minScore).toBeNull()
    const res = await queryAgentVia(agent.id, { query: 'Do you sell espresso machines?' }, tenant.headers)
    expect(res.json.sources).toEqual([])
    const sent = JSON.stringify(sentMessages(model.fake.chatRequests()[0]))
    expect(sent).not.toContain('4711')
    expect(sent).toContain(NO_SOURCES_NOTICE)
    // a related question still gets its fragment
    const related = await queryAgentVia(agent.id, { query: 'How long is the Zephyr kettle warranty?' }, tenant.headers)
    expect(related.json.sources.map((s: { source: string }) => s.source)).toContain('warranty.md')
  })

  test('an agent without datastores is a plain assistant: no "no sources" mark', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { minScore: 0.5 })
    const res = await queryAgentVia(agent.id, { query: 'Hello!' }, tenant.headers)
    const prisma = await getPrisma()
    expect(await prisma.message.findUniqueOrThrow({ where: { id: res.json.messageId } })).toMatchObject({ noSources: false, searchQuery: null })
    const system = sentMessages(model.fake.chatRequests()[0]).find(m => m.role === 'system')!.content
    expect(system).not.toContain(NO_SOURCES_NOTICE)
  })
})
