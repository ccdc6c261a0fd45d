import { beforeAll, describe, expect, test } from 'vitest'
import * as agentConversations from '@/app/api/agents/[id]/conversations/route'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import * as agentItem from '@/app/api/agents/[id]/route'
import * as agents from '@/app/api/agents/route'
import * as conversationItem from '@/app/api/conversations/[id]/route'
import * as usageRoute from '@/app/api/usage/route'
import { createAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

// Bad input on every endpoint of the agents issue is a 4xx with the JSON error body, never a 5xx.
const model = useFakeModel()

let tenant: TestTenant
let agentId: string
beforeAll(async () => {
  tenant = await createTenant()
  agentId = (await createAgentVia(tenant)).id
})

const LONG_ID = 'x'.repeat(129)
const json = (body: unknown) => ({ body })
const raw = (body: string, contentType = 'application/json') => ({ body, contentType })

type Case = { name: string; send: { body?: unknown; contentType?: string }; status: number }

const createCases: Case[] = [
  { name: 'no body', send: {}, status: 415 },
  { name: 'text/plain', send: raw('{"name":"x"}', 'text/plain'), status: 415 },
  { name: 'malformed JSON', send: raw('{"name":'), status: 400 },
  { name: 'JSON null', send: raw('null'), status: 400 },
  { name: 'an array', send: json([{ name: 'x' }]), status: 400 },
  { name: 'name missing', send: json({ description: 'd' }), status: 400 },
  { name: 'name with a NUL character', send: raw('{"name":"a\\u0000b"}'), status: 400 },
  { name: 'name empty', send: json({ name: '  ' }), status: 400 },
  { name: 'name a number', send: json({ name: 5 }), status: 400 },
  { name: 'name too long', send: json({ name: 'n'.repeat(201) }), status: 400 },
  { name: 'description a number', send: json({ name: 'x', description: 1 }), status: 400 },
  { name: 'modelName unknown', send: json({ name: 'x', modelName: 'gpt-4' }), status: 400 },
  { name: 'temperature above 1', send: json({ name: 'x', temperature: 1.01 }), status: 400 },
  { name: 'temperature below 0', send: json({ name: 'x', temperature: -0.1 }), status: 400 },
  { name: 'temperature a string', send: json({ name: 'x', temperature: '0.5' }), status: 400 },
  { name: 'visibility unknown', send: json({ name: 'x', visibility: 'secret' }), status: 400 },
  { name: 'promptType unknown', send: json({ name: 'x', promptType: 'qa' }), status: 400 },
  { name: 'systemPrompt a number', send: json({ name: 'x', systemPrompt: 3 }), status: 400 },
  { name: 'systemPrompt too long', send: json({ name: 'x', systemPrompt: 's'.repeat(20_001) }), status: 400 },
  { name: 'datastoreIds not an array', send: json({ name: 'x', datastoreIds: 'ds_1' }), status: 400 },
  { name: 'datastoreIds with an empty id', send: json({ name: 'x', datastoreIds: [''] }), status: 400 },
  { name: 'datastoreIds with an absurd id', send: json({ name: 'x', datastoreIds: [LONG_ID] }), status: 400 },
  { name: 'datastoreIds unknown', send: json({ name: 'x', datastoreIds: ['ds_unknown'] }), status: 404 },
]

const updateCases: Case[] = [
  { name: 'no body', send: {}, status: 415 },
  { name: 'malformed JSON', send: raw('{'), status: 400 },
  { name: 'empty object (description missing)', send: json({}), status: 400 },
  { name: 'description null', send: json({ description: null }), status: 400 },
  { name: 'description a number', send: json({ description: 7 }), status: 400 },
  { name: 'name empty', send: json({ description: '', name: '' }), status: 400 },
  { name: 'modelName unknown', send: json({ description: '', modelName: 'model_5' }), status: 400 },
  { name: 'temperature 2', send: json({ description: '', temperature: 2 }), status: 400 },
  { name: 'visibility unknown', send: json({ description: '', visibility: 'everyone' }), status: 400 },
  { name: 'promptType unknown', send: json({ description: '', promptType: 'chat' }), status: 400 },
  { name: 'datastoreIds of numbers', send: json({ description: '', datastoreIds: [1, 2] }), status: 400 },
]

const queryCases: Case[] = [
  { name: 'no body', send: {}, status: 415 },
  { name: 'text/plain', send: raw('{"query":"x"}', 'text/plain'), status: 415 },
  { name: 'malformed JSON', send: raw('{"query":"x"'), status: 400 },
  { name: 'not UTF-8', send: { body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), contentType: 'application/json' }, status: 400 },
  { name: 'JSON null', send: raw('null'), status: 400 },
  { name: 'a string', send: raw('"query"'), status: 400 },
  { name: 'query missing', send: json({}), status: 400 },
  { name: 'query empty', send: json({ query: '' }), status: 400 },
  { name: 'query blank', send: json({ query: '   ' }), status: 400 },
  { name: 'query a number', send: json({ query: 42 }), status: 400 },
  { name: 'query too long', send: json({ query: 'q'.repeat(16_001) }), status: 400 },
  { name: 'query with a NUL character', send: raw('{"query":"a\\u0000b"}'), status: 400 },
  { name: 'temperature 1.5', send: json({ query: 'q', temperature: 1.5 }), status: 400 },
  { name: 'temperature -1', send: json({ query: 'q', temperature: -1 }), status: 400 },
  { name: 'presencePenalty 2.5', send: json({ query: 'q', presencePenalty: 2.5 }), status: 400 },
  { name: 'presencePenalty -3', send: json({ query: 'q', presencePenalty: -3 }), status: 400 },
  { name: 'frequencyPenalty 3', send: json({ query: 'q', frequencyPenalty: 3 }), status: 400 },
  { name: 'frequencyPenalty a string', send: json({ query: 'q', frequencyPenalty: '1' }), status: 400 },
  { name: 'topP 1.5', send: json({ query: 'q', topP: 1.5 }), status: 400 },
  { name: 'topP negative', send: json({ query: 'q', topP: -0.1 }), status: 400 },
  { name: 'maxTokens 0', send: json({ query: 'q', maxTokens: 0 }), status: 400 },
  { name: 'maxTokens negative', send: json({ query: 'q', maxTokens: -5 }), status: 400 },
  { name: 'maxTokens fractional', send: json({ query: 'q', maxTokens: 1.5 }), status: 400 },
  { name: 'maxTokens huge', send: json({ query: 'q', maxTokens: 1e9 }), status: 400 },
  { name: 'maxTokens a string', send: json({ query: 'q', maxTokens: '100' }), status: 400 },
  { name: 'modelName model_4_32k (not allowed in a query)', send: json({ query: 'q', modelName: 'model_4_32k' }), status: 400 },
  { name: 'modelName unknown', send: json({ query: 'q', modelName: 'gpt-4o' }), status: 400 },
  { name: 'modelName gpt_4_32k (model_4_32k, not allowed in a query)', send: json({ query: 'q', modelName: 'gpt_4_32k' }), status: 400 },
  { name: 'channel a number', send: json({ query: 'q', channel: 1 }), status: 400 },
  { name: 'streamEncoding unknown', send: json({ query: 'q', streamEncoding: 'base64' }), status: 400 },
  { name: 'streaming a string', send: json({ query: 'q', streaming: 'yes' }), status: 400 },
  { name: 'filters an array', send: json({ query: 'q', filters: [] }), status: 400 },
  { name: 'filters.custom_ids a string', send: json({ query: 'q', filters: { custom_ids: 'a' } }), status: 400 },
  { name: 'filters.datasource_ids of numbers', send: json({ query: 'q', filters: { datasource_ids: [1] } }), status: 400 },
  { name: 'conversationId a number', send: json({ query: 'q', conversationId: 12 }), status: 400 },
  { name: 'conversationId absurd', send: json({ query: 'q', conversationId: LONG_ID }), status: 400 },
  { name: 'conversationId unknown', send: json({ query: 'q', conversationId: 'conv_unknown' }), status: 404 },
  { name: 'visitorId with spaces', send: json({ query: 'q', visitorId: 'a visitor' }), status: 400 },
  { name: 'visitorId too long', send: json({ query: 'q', visitorId: 'v'.repeat(129) }), status: 400 },
  { name: 'promptType unknown', send: json({ query: 'q', promptType: 'qa' }), status: 400 },
  { name: 'userPrompt a number', send: json({ query: 'q', userPrompt: 1 }), status: 400 },
]

async function send(handler: any, path: string, method: string, c: Case['send'], params: Record<string, string>) {
  const headers: Record<string, string> = { ...tenant.headers }
  if (c.contentType) headers['content-type'] = c.contentType
  return call(handler, path, { method, headers, body: c.body, params })
}

function expectRefused(res: Awaited<ReturnType<typeof call>>, expected: number, name: string) {
  expect(res.status, `${name}: ${res.text}`).toBe(expected)
  expectErrorBody(res.json)
}

describe('bad input on the agents endpoints', () => {
  test.each(createCases)('POST /api/agents with $name → $status', async c => {
    expectRefused(await send(agents.POST, '/api/agents', 'POST', c.send, {}), c.status, c.name)
  })

  test.each(updateCases)('PATCH /api/agents/{id} with $name → $status', async c => {
    expectRefused(await send(agentItem.PATCH, `/api/agents/${agentId}`, 'PATCH', c.send, { id: agentId }), c.status, c.name)
  })

  test.each(queryCases)('POST /api/agents/{id}/query with $name → $status', async c => {
    expectRefused(await send(agentQuery.POST, `/api/agents/${agentId}/query`, 'POST', c.send, { id: agentId }), c.status, c.name)
  })

  test('no bad query reached the model', () => {
    expect(model.fake.chatRequests()).toHaveLength(0)
  })

  test.each([
    { name: 'malformed JSON', send: raw('{'), status: 400 },
    { name: 'an XML body', send: raw('<x/>', 'application/xml'), status: 415 },
    { name: 'an array', send: json([1]), status: 400 },
  ])('DELETE /api/agents/{id} with $name → $status', async c => {
    expectRefused(await send(agentItem.DELETE, `/api/agents/${agentId}`, 'DELETE', c.send, { id: agentId }), c.status, c.name)
  })

  test('an absurd id in the path is a 400 on every item endpoint', async () => {
    const params = { id: LONG_ID }
    const cases = [
      await call(agentItem.GET, '/api/agents/x', { headers: tenant.headers, params }),
      await call(agentItem.PATCH, '/api/agents/x', { method: 'PATCH', headers: tenant.headers, body: { description: '' }, params }),
      await call(agentItem.DELETE, '/api/agents/x', { method: 'DELETE', headers: tenant.headers, params }),
      await call(agentQuery.POST, '/api/agents/x/query', { method: 'POST', headers: tenant.headers, body: { query: 'q' }, params }),
      await call(agentConversations.GET, '/api/agents/x/conversations', { headers: tenant.headers, params }),
      await call(conversationItem.GET, '/api/conversations/x', { headers: tenant.headers, params }),
    ]
    for (const res of cases) expectRefused(res, 400, res.text)
  })

  test('unknown ids are 404s on every item endpoint', async () => {
    const params = { id: 'unknown_id' }
    const cases = [
      await call(agentItem.GET, '/api/agents/unknown_id', { headers: tenant.headers, params }),
      await call(agentItem.PATCH, '/api/agents/unknown_id', { method: 'PATCH', headers: tenant.headers, body: { description: '' }, params }),
      await call(agentItem.DELETE, '/api/agents/unknown_id', { method: 'DELETE', headers: tenant.headers, params }),
      await call(agentQuery.POST, '/api/agents/unknown_id/query', { method: 'POST', headers: tenant.headers, body: { query: 'q' }, params }),
      await call(agentConversations.GET, '/api/agents/unknown_id/conversations', { headers: tenant.headers, params }),
      await call(conversationItem.GET, '/api/conversations/unknown_id', { headers: tenant.headers, params }),
    ]
    for (const res of cases) expectRefused(res, 404, res.text)
  })

  test.each(['0', '-1', 'abc', '1000', '2.5'])('GET /api/agents/{id}/conversations?limit=%s → 400', async limit => {
    const res = await call(agentConversations.GET, `/api/agents/${agentId}/conversations?limit=${limit}`, { headers: tenant.headers, params: { id: agentId } })
    expectRefused(res, 400, limit)
  })

  test('every endpoint wants a key (except public agents), and says 401 in JSON', async () => {
    const params = { id: agentId }
    const cases = [
      await call(agents.GET, '/api/agents'),
      await call(agents.POST, '/api/agents', { method: 'POST', body: { name: 'x' } }),
      await call(agentItem.GET, `/api/agents/${agentId}`, { params }),
      await call(agentItem.PATCH, `/api/agents/${agentId}`, { method: 'PATCH', body: { description: '' }, params }),
      await call(agentItem.DELETE, `/api/agents/${agentId}`, { method: 'DELETE', params }),
      await call(agentQuery.POST, `/api/agents/${agentId}/query`, { method: 'POST', body: { query: 'q' }, params }),
      await call(agentConversations.GET, `/api/agents/${agentId}/conversations`, { params }),
      await call(conversationItem.GET, '/api/conversations/c1', { params: { id: 'c1' } }),
      await call(usageRoute.GET, '/api/usage'),
      await call(agents.GET, '/api/agents', { headers: { authorization: 'Bearer nope' } }),
    ]
    for (const res of cases) expectRefused(res, 401, res.text)
  })

  test('other methods are JSON 405s', async () => {
    const params = { id: agentId }
    const cases = [
      await call(agents.PUT, '/api/agents', { method: 'PUT', headers: tenant.headers }),
      await call(agentItem.POST, `/api/agents/${agentId}`, { method: 'POST', headers: tenant.headers, params }),
      await call(agentQuery.GET, `/api/agents/${agentId}/query`, { headers: tenant.headers, params }),
      await call(agentConversations.DELETE, `/api/agents/${agentId}/conversations`, { method: 'DELETE', headers: tenant.headers, params }),
      await call(conversationItem.DELETE, '/api/conversations/c1', { method: 'DELETE', headers: tenant.headers, params: { id: 'c1' } }),
      await call(usageRoute.POST, '/api/usage', { method: 'POST', headers: tenant.headers }),
    ]
    for (const res of cases) expectRefused(res, 405, res.text)
  })
})
