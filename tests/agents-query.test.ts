import { describe, expect, test } from 'vitest'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { modelCatalogue } from '@/lib/agents/model-catalogue'
import { drainQueue } from '@/lib/ingest/worker'
import { getPrisma } from '@/lib/db/client'
import { createAgentVia, queryAgentVia, seedDatastore, sentMessages, useFakeModel } from './helpers/agents'
import { expectErrorBody } from './helpers/http'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

const model = useFakeModel()

const KETTLE_DOCS = [
  { text: 'The Aurora kettle carries a warranty of two years from the date of purchase.', name: 'warranty.md' },
  { text: 'Our offices are closed on public holidays; support answers by email within a day.', name: 'support.md' },
]

describe('querying an agent', () => {
  test('the retrieved context and the question reach the model, and the answer comes back with its sources', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE_DOCS)
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    model.fake.setBehaviour({ reply: 'Two years.' })

    const res = await queryAgentVia(agent.id, { query: 'How long is the kettle warranty?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ answer: 'Two years.', conversationId: expect.any(String), visitorId: expect.any(String), messageId: expect.any(String) })
    const [sent] = model.fake.chatRequests()
    const text = sentMessages(sent).map(m => m.content).join('\n')
    expect(text).toContain('warranty of two years')
    expect(sentMessages(sent).at(-1)).toEqual({ role: 'user', content: 'How long is the kettle warranty?' })
    expect(res.json.sources[0]).toEqual({
      text: KETTLE_DOCS[0].text,
      score: expect.any(Number),
      source: 'warranty.md',
      datasource_id: expect.any(String),
      datasource_name: 'warranty.md',
    })
  })

  test('a document upserted and synched by the worker is retrieved into the answer', async () => {
    const tenant = await createTenant()
    const prisma = await getPrisma()
    const store = await prisma.datastore.create({ data: { organizationId: tenant.ctx.organizationId, name: 'Manuals' } })
    const upserted = await call(upsert.POST, `/api/datastores/upsert/${store.id}`, {
      method: 'POST',
      headers: tenant.headers,
      body: { documents: [{ text: 'The Zephyr toaster has a browning dial with seven settings.', name: 'toaster.md', metadata: { source: 'https://example.com/toaster' } }] },
      params: { datastoreId: store.id },
    })
    expect(upserted.status).toBe(200)
    await drainQueue()
    const agent = await createAgentVia(tenant, { datastoreIds: [store.id] })

    const res = await queryAgentVia(agent.id, { query: 'How many browning settings does the toaster have?' }, tenant.headers)

    expect(res.status).toBe(200)
    expect(res.json.sources[0]).toMatchObject({ source: 'https://example.com/toaster', datasource_name: 'toaster.md' })
    expect(res.json.sources[0].text).toContain('seven settings')
    const system = sentMessages(model.fake.chatRequests()[0]).find(m => m.role === 'system')!
    expect(system.content).toContain('browning dial with seven settings')
  })

  test('the model request uses the chat completions API with the catalogue model id', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { modelName: 'model_4' })
    await queryAgentVia(agent.id, { query: 'Hello?' }, tenant.headers)
    const [sent] = model.fake.chatRequests()
    expect(sent.model).toBe('gpt-4o')
  })

  test('MODEL_MAP overrides the catalogue, and an invalid MODEL_MAP is a 503 naming it', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { modelName: 'model_4' })
    process.env.MODEL_MAP = '{"model_4":"llama3.1:70b"}'
    try {
      await queryAgentVia(agent.id, { query: 'Hello?' }, tenant.headers)
      expect(model.fake.chatRequests()[0].model).toBe('llama3.1:70b')
      process.env.MODEL_MAP = '{model_4: nope'
      const res = await queryAgentVia(agent.id, { query: 'Hello?' }, tenant.headers)
      expect(res.status).toBe(503)
      expectErrorBody(res.json, 'upstream_unavailable')
      expect(res.json.error.message).toContain('MODEL_MAP')
    } finally {
      delete process.env.MODEL_MAP
    }
  })

  test('the default catalogue maps every model name, and MODEL_MAP with an unknown name is refused', () => {
    expect(modelCatalogue()).toEqual({ model_3_5_turbo: 'gpt-4o-mini', model_3_5_turbo_16k: 'gpt-4o-mini', model_4: 'gpt-4o', model_4_32k: 'gpt-4o' })
    process.env.MODEL_MAP = '{"model4":"x"}'
    try {
      expect(() => modelCatalogue()).toThrow(/MODEL_MAP must be a JSON object/)
      process.env.MODEL_MAP = '["gpt-4o"]'
      expect(() => modelCatalogue()).toThrow(/MODEL_MAP/)
    } finally {
      delete process.env.MODEL_MAP
    }
  })

  test('temperature, maxTokens, topP, the penalties and modelName of the body reach the model request', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { temperature: 0.9 })
    const res = await queryAgentVia(
      agent.id,
      { query: 'Hi', temperature: 0.2, maxTokens: 77, topP: 0.5, presencePenalty: 1.5, frequencyPenalty: -1.25, modelName: 'model_3_5_turbo_16k' },
      tenant.headers,
    )
    expect(res.status).toBe(200)
    const [sent] = model.fake.chatRequests()
    expect(sent).toMatchObject({ temperature: 0.2, max_tokens: 77, top_p: 0.5, presence_penalty: 1.5, frequency_penalty: -1.25, model: 'gpt-4o-mini' })
  })

  test("without overrides the agent's temperature is used", async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { temperature: 0.7 })
    await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)
    expect(model.fake.chatRequests()[0].temperature).toBe(0.7)
  })

  test('the second turn of a conversation carries the first', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'Nice to meet you, Ada.' })
    const first = await queryAgentVia(agent.id, { query: 'My name is Ada.' }, tenant.headers)
    model.fake.setBehaviour({ reply: 'You are Ada.' })
    const second = await queryAgentVia(agent.id, { query: 'What is my name?', conversationId: first.json.conversationId }, tenant.headers)

    expect(second.status).toBe(200)
    expect(second.json.conversationId).toBe(first.json.conversationId)
    expect(second.json.visitorId).toBe(first.json.visitorId)
    const messages = sentMessages(model.fake.chatRequests()[1])
    expect(messages.slice(-3)).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ])
  })

  test('a message that looks like a special token is history like any other', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const first = await queryAgentVia(agent.id, { query: 'What does <|endoftext|> mean?' }, tenant.headers)
    const second = await queryAgentVia(agent.id, { query: 'And again?', conversationId: first.json.conversationId }, tenant.headers)
    expect(second.status).toBe(200)
    expect(sentMessages(model.fake.chatRequests()[1])[1]).toEqual({ role: 'user', content: 'What does <|endoftext|> mean?' })
  })

  test('a query holding a lone surrogate is answered and stored, not a 500', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const res = await call(agentQuery.POST, `/api/agents/${agent.id}/query`, {
      method: 'POST',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: '{"query":"broken \\ud800 text"}',
      params: { id: agent.id },
    })
    expect(res.status).toBe(200)
  })

  test('history beyond the token budget is left out, newest kept', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    process.env.AGENT_HISTORY_TOKENS = '40'
    try {
      const first = await queryAgentVia(agent.id, { query: `first ${'word '.repeat(60)}` }, tenant.headers)
      const conversationId = first.json.conversationId
      model.fake.setBehaviour({ reply: 'short' })
      await queryAgentVia(agent.id, { query: 'second question', conversationId }, tenant.headers)
      await queryAgentVia(agent.id, { query: 'third question', conversationId }, tenant.headers)
      const contents = sentMessages(model.fake.chatRequests()[2]).map(m => m.content)
      expect(contents).toContain('second question')
      expect(contents.some(c => c.startsWith('first'))).toBe(false)
    } finally {
      delete process.env.AGENT_HISTORY_TOKENS
    }
  })

  test('an unknown conversationId too short to be unguessable, or one of another agent, is a 404', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const other = await createAgentVia(tenant, { name: 'Other' })
    const theirs = await queryAgentVia(other.id, { query: 'Hello' }, tenant.headers)

    for (const conversationId of ['c_unknown', theirs.json.conversationId]) {
      const res = await queryAgentVia(agent.id, { query: 'Hello', conversationId }, tenant.headers)
      expect(res.status, conversationId).toBe(404)
      expectErrorBody(res.json, 'not_found')
    }
  })

  test("another organization's conversation is a 404", async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agentA = await createAgentVia(a, { visibility: 'public' })
    const agentB = await createAgentVia(b)
    const theirs = await queryAgentVia(agentA.id, { query: 'Hello' }, a.headers)
    const res = await queryAgentVia(agentB.id, { query: 'Hello', conversationId: theirs.json.conversationId }, b.headers)
    expect(res.status).toBe(404)
  })

  test('a conversation is continued by its own visitor only', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const first = await queryAgentVia(agent.id, { query: 'Hello', visitorId: 'visitor-one' }, tenant.headers)
    expect(first.json.visitorId).toBe('visitor-one')
    const res = await queryAgentVia(agent.id, { query: 'Hello', conversationId: first.json.conversationId, visitorId: 'visitor-two' }, tenant.headers)
    expect(res.status).toBe(404)
  })

  test("a new visitorId is adopted, and another organization's visitor is a 404", async () => {
    const a = await createTenant()
    const b = await createTenant()
    const agentA = await createAgentVia(a)
    const agentB = await createAgentVia(b)
    const res = await queryAgentVia(agentA.id, { query: 'Hello', visitorId: 'widget_visitor_42' }, a.headers)
    expect(res.status).toBe(200)
    expect(res.json.visitorId).toBe('widget_visitor_42')
    const again = await queryAgentVia(agentA.id, { query: 'Hello again', visitorId: 'widget_visitor_42' }, a.headers)
    expect(again.json.visitorId).toBe('widget_visitor_42')
    expect(again.json.conversationId).not.toBe(res.json.conversationId)

    const foreign = await queryAgentVia(agentB.id, { query: 'Hello', visitorId: 'widget_visitor_42' }, b.headers)
    expect(foreign.status).toBe(404)
  })

  test('question, answer, sources and token usage are stored', async () => {
    const tenant = await createTenant()
    const { datastoreId } = await seedDatastore(tenant, KETTLE_DOCS)
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    model.fake.setBehaviour({ reply: 'Two years.' })
    const res = await queryAgentVia(agent.id, { query: 'kettle warranty?' }, tenant.headers)

    const conversation = await call(conversationItem.GET, `/api/conversations/${res.json.conversationId}`, {
      headers: tenant.headers,
      params: { id: res.json.conversationId },
    })
    expect(conversation.status).toBe(200)
    const [question, answer] = conversation.json.messages
    expect(question).toMatchObject({ role: 'user', text: 'kettle warranty?' })
    expect(answer).toMatchObject({ id: res.json.messageId, role: 'assistant', text: 'Two years.', promptTokens: 42, completionTokens: 10, error: null })
    expect(answer.sources).toEqual(res.json.sources)
    expect(answer.sources.length).toBeGreaterThan(0)
    // the month's usage counts the query and the model's tokens (stored with the answer, in its statement)
    const usage = await (await getPrisma()).usage.findMany({ where: { organizationId: tenant.ctx.organizationId } })
    expect(usage).toMatchObject([{ agentQueries: 1, promptTokens: 42, completionTokens: 10 }])
    // a conversation's messages are stored in order, the question before its answer
    expect(new Date(question.createdAt).getTime()).toBeLessThanOrEqual(new Date(answer.createdAt).getTime())
    expect(Math.abs(new Date(answer.createdAt).getTime() - Date.now())).toBeLessThan(60_000)
  })

  test('the filters of the body narrow retrieval to the given datasources and custom ids', async () => {
    const tenant = await createTenant()
    const { datastoreId, datasourceIds } = await seedDatastore(tenant, [
      { text: 'Kettle manual for tenant alpha: descale monthly.', customId: 'alpha' },
      { text: 'Kettle manual for tenant beta: descale weekly.', customId: 'beta' },
    ])
    const agent = await createAgentVia(tenant, { datastoreIds: [datastoreId] })
    const byCustomId = await queryAgentVia(agent.id, { query: 'kettle descale', filters: { custom_ids: ['beta'] } }, tenant.headers)
    expect(byCustomId.json.sources.map((s: any) => s.text)).toEqual(['Kettle manual for tenant beta: descale weekly.'])
    const byDatasource = await queryAgentVia(agent.id, { query: 'kettle descale', filters: { datasource_ids: [datasourceIds[0]] } }, tenant.headers)
    expect(byDatasource.json.sources.map((s: any) => s.datasource_id)).toEqual([datasourceIds[0]])
  })

  test('an upstream failure is a 502 JSON error and the question is still stored', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'error' })
    const res = await queryAgentVia(agent.id, { query: 'Are you there?' }, tenant.headers)
    expect(res.status).toBe(502)
    expectErrorBody(res.json, 'upstream_unavailable')
    const prisma = await getPrisma()
    const messages = await prisma.message.findMany({
      where: { conversation: { agentId: agent.id } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    })
    expect(messages.map(m => [m.role, m.text])).toEqual([['user', 'Are you there?'], ['assistant', '']])
    expect(messages[1].error).toContain('The model failed')
  })

  test('a model that hangs is stopped by the timeout with a 504', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ mode: 'hang' })
    process.env.AGENT_MODEL_TIMEOUT_SECONDS = '1'
    try {
      const res = await queryAgentVia(agent.id, { query: 'Are you there?' }, tenant.headers)
      expect(res.status).toBe(504)
      expectErrorBody(res.json, 'upstream_unavailable')
      expect(res.json.error.message).toContain('1 s')
    } finally {
      delete process.env.AGENT_MODEL_TIMEOUT_SECONDS
    }
  })

  test('without OPENAI_API_KEY a query is a 503 that names OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    const saved = process.env.OPENAI_API_KEY
    delete process.env.OPENAI_API_KEY
    try {
      for (const streaming of [false, true]) {
        const res = await queryAgentVia(agent.id, { query: 'Hello', streaming }, tenant.headers)
        expect(res.status).toBe(503)
        expect(res.headers.get('content-type')).toContain('application/json')
        expectErrorBody(res.json, 'upstream_unavailable')
        expect(res.json.error.message).toContain('OPENAI_API_KEY')
        expect(res.json.error.message).toContain('OPENAI_BASE_URL')
      }
    } finally {
      process.env.OPENAI_API_KEY = saved
    }
  })
})
