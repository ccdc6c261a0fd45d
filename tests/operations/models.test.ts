// Issue 27: the Models page's endpoints, against the fake OpenAI-compatible server — its own model list, read with
// the official SDK; a connection test saying in plain words what failed; the organization's map from modelName to
// model id, applied to the next answer without a restart, and another organization's answers untouched.
import net from 'node:net'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as modelsMap from '@/app/api/models/map/route'
import * as models from '@/app/api/models/route'
import * as modelsTest from '@/app/api/models/test/route'
import { createAgentVia, queryAgentVia, useFakeModel } from '../helpers/agents'
import { call, expectErrorBody } from '../helpers/http'
import { createTenant } from '../helpers/tenants'

const model = useFakeModel()
// a base URL nothing listens on: a port just given up
let closedBaseURL = ''
beforeAll(async () => {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise(resolve => server.close(resolve))
  closedBaseURL = `http://127.0.0.1:${port}/v1`
})

afterEach(() => {
  process.env.OPENAI_BASE_URL = model.fake.baseURL
  delete process.env.MODEL_MAP
})

const putMap = (headers: Record<string, string>, body: unknown) => call(modelsMap.PUT, '/api/models/map', { method: 'PUT', headers, body })
const testConnection = (headers: Record<string, string>) => call(modelsTest.POST, '/api/models/test', { method: 'POST', headers })

describe('GET /api/models', () => {
  test("lists the server's own models, read from its /v1/models", async () => {
    model.fake.setBehaviour({ models: ['qwen2.5:7b', 'llama3.1:8b', 'nomic-embed-text'] })
    const { headers } = await createTenant()
    const res = await call(models.GET, '/api/models', { headers })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      endpoint: model.fake.baseURL,
      models: [{ id: 'llama3.1:8b', ownedBy: 'fake' }, { id: 'nomic-embed-text', ownedBy: 'fake' }, { id: 'qwen2.5:7b', ownedBy: 'fake' }],
    })
  })

  test('a server that cannot be reached is a 503 saying so', async () => {
    process.env.OPENAI_BASE_URL = closedBaseURL
    const { headers } = await createTenant()
    const res = await call(models.GET, '/api/models', { headers })
    expect(res.status).toBe(503)
    expectErrorBody(res.json)
    expect(res.json.error.message).toContain(`could not reach ${closedBaseURL}: connection refused`)
  })
})

describe('the model map', () => {
  test('a saved mapping makes the next answer go to the new model id, without a restart', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant, { modelName: 'model_4' })
    await queryAgentVia(agent.id, { query: 'Hello?' }, tenant.headers)
    expect(model.fake.chatRequests().at(-1)?.model).toBe('gpt-4o')

    const saved = await putMap(tenant.headers, { model_4: 'llama3.1:8b' })
    expect(saved.status).toBe(200)
    expect(saved.json.organization).toEqual({ model_4: 'llama3.1:8b' })
    expect(saved.json.effective.model_4).toBe('llama3.1:8b')
    await queryAgentVia(agent.id, { query: 'Hello again?' }, tenant.headers)
    expect(model.fake.chatRequests().at(-1)?.model).toBe('llama3.1:8b')
  })

  test("the organization's map overrides MODEL_MAP; a name it leaves out follows MODEL_MAP", async () => {
    process.env.MODEL_MAP = JSON.stringify({ model_4: 'env-model-4', model_3_5_turbo: 'env-model-3' })
    const tenant = await createTenant()
    await putMap(tenant.headers, { model_4: 'org-model-4', model_3_5_turbo: null })
    const res = await call(modelsMap.GET, '/api/models/map', { headers: tenant.headers })
    expect(res.json.environment).toMatchObject({ model_4: 'env-model-4', model_3_5_turbo: 'env-model-3' })
    expect(res.json.effective).toMatchObject({ model_4: 'org-model-4', model_3_5_turbo: 'env-model-3' })
  })

  test("another organization's answers keep their own models", async () => {
    const [a, b] = [await createTenant(), await createTenant()]
    await putMap(a.headers, { model_3_5_turbo: 'only-for-a' })
    const agent = await createAgentVia(b, { modelName: 'model_3_5_turbo' })
    await queryAgentVia(agent.id, { query: 'Which model?' }, b.headers)
    expect(model.fake.chatRequests().at(-1)?.model).toBe('gpt-4o-mini')
  })

  test('a name that is not a modelName is a 400 naming it', async () => {
    const { headers } = await createTenant()
    const res = await putMap(headers, { model4: 'llama3' })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.json.error.details)).toContain('model4')
  })
})

describe('POST /api/models/test', () => {
  test('a working server: the chat and the embeddings each ok, with the model ids called', async () => {
    const tenant = await createTenant()
    await putMap(tenant.headers, { model_3_5_turbo: 'llama3.1:8b' })
    const res = await testConnection(tenant.headers)
    expect(res.status).toBe(200)
    expect(res.json.chat).toMatchObject({ ok: true, model: 'llama3.1:8b', message: expect.stringMatching(/^the model answered in \d+ ms$/) })
    expect(res.json.embeddings).toMatchObject({ ok: true, model: 'text-embedding-3-small', message: expect.stringMatching(/^64 dimensions returned in \d+ ms$/) })
  })

  test('a broken base URL: both steps failed, "could not reach …: connection refused"', async () => {
    process.env.OPENAI_BASE_URL = closedBaseURL
    const res = await testConnection((await createTenant()).headers)
    expect(res.status).toBe(200)
    expect(res.json.chat).toMatchObject({ ok: false, message: `could not reach ${closedBaseURL}: connection refused` })
    expect(res.json.embeddings).toMatchObject({ ok: false, message: `could not reach ${closedBaseURL}: connection refused` })
  })

  test('a key the server refuses: "the server refused the API key"', async () => {
    model.fake.setBehaviour({ requireKey: 'sk-another-key' })
    const res = await testConnection((await createTenant()).headers)
    expect(res.json.chat).toMatchObject({ ok: false, message: 'the server refused the API key' })
    expect(res.json.embeddings).toMatchObject({ ok: false, message: 'the server refused the API key' })
  })

  test('a chat model the server does not have: said with its name', async () => {
    model.fake.setBehaviour({ mode: 'error', status: 404 })
    const res = await testConnection((await createTenant()).headers)
    expect(res.json.chat.ok).toBe(false)
    expect(res.json.chat.message).toMatch(/^the server has no model named "gpt-4o-mini"/)
    expect(res.json.embeddings.ok).toBe(true)
  })
})

describe('who may', () => {
  test('a key without the admin scope is refused (403)', async () => {
    const tenant = await createTenant()
    const { createApiKey, generateApiKeySecret } = await import('@/lib/auth/api-keys')
    const { secret } = await createApiKey(tenant.ctx, 'reader', generateApiKeySecret(), { scopes: ['agents:read'] })
    const res = await call(modelsMap.GET, '/api/models/map', { headers: { authorization: `Bearer ${secret}` } })
    expect(res.status).toBe(403)
  })
})
