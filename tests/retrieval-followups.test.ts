// Issue 13.1: a follow-up is searched as the standalone question the agent's model makes of it.
import { afterEach, describe, expect, test } from 'vitest'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, queryAgentVia, sentMessages, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { upsertedDatastore } from './helpers/retrieval'
import { createTenant, type TestTenant } from './helpers/tenants'

const model = useFakeModel()

const PRICE = 'The Zephyr kettle costs 49 euros, delivery included, with a two-year warranty on its heating element.'
const CATALOGUE = [
  { text: 'The Zephyr kettle is a stainless steel electric kettle that boils a litre of water in ninety seconds.', name: 'zephyr.md' },
  { text: PRICE, name: 'zephyr-price.md' },
  { text: 'The Aurora toaster costs 35 euros and it toasts four slices.', name: 'aurora-price.md' },
  { text: 'The Boreal blender costs 80 euros.', name: 'boreal-price.md' },
]

async function catalogueAgent(tenant: TestTenant, agentBody: Record<string, unknown> = {}) {
  const id = await upsertedDatastore(tenant, CATALOGUE, 'Catalogue')
  return createAgentVia(tenant, { datastoreIds: [id], ...agentBody })
}

/** Asks the Zephyr question, then the follow-up in the same conversation; the follow-up's answer. */
async function askFollowUp(tenant: TestTenant, agentId: string, followUp: Record<string, unknown> = {}) {
  const first = await queryAgentVia(agentId, { query: 'tell me about the Zephyr kettle' }, tenant.headers)
  expect(first.status).toBe(200)
  const res = await queryAgentVia(agentId, { query: 'and how much does it cost?', conversationId: first.json.conversationId, ...followUp }, tenant.headers)
  expect(res.status).toBe(200)
  return res.json
}

describe('standalone questions', () => {
  afterEach(() => {
    delete process.env.AGENT_TOP_K
    delete process.env.REWRITE_TIMEOUT_MS
  })

  test('"and how much does it cost?" after the Zephyr kettle retrieves the Zephyr price only with rewriting on', async () => {
    process.env.AGENT_TOP_K = '1'
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant)

    const rewritten = await askFollowUp(tenant, agent.id)
    expect(rewritten.sources.map((s: { text: string }) => s.text)).toEqual([PRICE])

    const asTyped = await askFollowUp(tenant, agent.id, { rewriteQuestion: false })
    expect(asTyped.sources.map((s: { text: string }) => s.text)).not.toContain(PRICE)
  })

  test('the rewrite is one short call to the agent\'s model with the recent history, and the query searched is stored with the answer', async () => {
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant)
    const answer = await askFollowUp(tenant, agent.id)

    const [rewrite] = model.fake.rewriteRequests()
    expect(model.fake.rewriteRequests()).toHaveLength(1) // the first question had no history: no rewrite
    expect(rewrite.max_tokens ?? rewrite.max_completion_tokens).toBeLessThanOrEqual(128)
    expect(rewrite.temperature).toBe(0)
    expect(rewrite.stream).toBeFalsy()
    const request = sentMessages(rewrite).at(-1)!.content
    expect(request).toContain('User: tell me about the Zephyr kettle')
    expect(request).toContain('Follow-up question: and how much does it cost?')
    // the answer itself is asked with the question as the user typed it
    expect(sentMessages(model.fake.chatRequests().at(-1)).at(-1)!.content).toBe('and how much does it cost?')

    const prisma = await getPrisma()
    const stored = await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })
    expect(stored.searchQuery).toBe('and how much does it cost? tell me about the Zephyr kettle')
    expect(stored.topScore).toBeGreaterThan(0)
    const read = await call(conversationItem.GET, '/x', { headers: tenant.headers, params: { id: answer.conversationId } })
    expect(read.json.messages.at(-1)).toMatchObject({ role: 'assistant', searchQuery: stored.searchQuery, noSources: false })
  })

  test('an agent with rewriting switched off searches follow-ups as typed', async () => {
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant, { rewriteQuestions: false })
    expect(agent.rewriteQuestions).toBe(false)
    const answer = await askFollowUp(tenant, agent.id)
    expect(model.fake.rewriteRequests()).toHaveLength(0)
    const prisma = await getPrisma()
    expect((await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).searchQuery).toBe('and how much does it cost?')
    // and a query may switch it back on
    await askFollowUp(tenant, agent.id, { rewriteQuestion: true })
    expect(model.fake.rewriteRequests()).toHaveLength(1)
  })

  test('a failing rewrite falls back to the question as typed, and the answer still comes', async () => {
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant)
    model.fake.setBehaviour({ rewriteMode: 'error' })
    const answer = await askFollowUp(tenant, agent.id)
    expect(answer.answer).toContain('You asked: and how much does it cost?')
    const prisma = await getPrisma()
    expect((await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).searchQuery).toBe('and how much does it cost?')
  })

  test('a rewrite that never answers is abandoned after REWRITE_TIMEOUT_MS and the question is searched as typed', async () => {
    process.env.REWRITE_TIMEOUT_MS = '300'
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant)
    model.fake.setBehaviour({ rewriteMode: 'hang' })
    const started = Date.now()
    const answer = await askFollowUp(tenant, agent.id)
    // a generous bound: far below the model's own timeout (60 s), whatever the machine's load
    expect(Date.now() - started).toBeLessThan(20_000)
    const prisma = await getPrisma()
    expect((await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).searchQuery).toBe('and how much does it cost?')
  })

  test('a rewrite reply is cleaned into one line', async () => {
    const tenant = await createTenant()
    const agent = await catalogueAgent(tenant)
    model.fake.setBehaviour({ rewriteReply: 'Standalone query: "How much does the Zephyr kettle cost?"\nI hope this helps.' })
    const answer = await askFollowUp(tenant, agent.id)
    const prisma = await getPrisma()
    expect((await prisma.message.findUniqueOrThrow({ where: { id: answer.messageId } })).searchQuery).toBe('How much does the Zephyr kettle cost?')
  })
})
