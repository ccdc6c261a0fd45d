import { NextRequest, type NextResponse } from 'next/server'
import { describe, expect, test } from 'vitest'
import * as databerryQuery from '@/app/api/query/[datastoreId]/route'
import { proxy } from '@/proxy'
import { createAgentVia, seedDatastore, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

// Chaindesk's other paths (DESIGN.md §7), resolved by proxy.ts, and CORS for the routes a widget on another site calls.

useFakeModel()

const JSON_BODY = { 'content-type': 'application/json' }
const BEARER = { authorization: 'Bearer ads_some_key' }

function through(method: string, url: string, headers: Record<string, string> = {}) {
  const res = proxy(new NextRequest(url, { method, headers })) as NextResponse
  const rewrite = res.headers.get('x-middleware-rewrite')
  return { res, rewrittenTo: rewrite ? new URL(rewrite).pathname : null }
}

describe('alias paths', () => {
  const cases: [string, string, Record<string, string>, string][] = [
    ['POST', 'http://api.example.com/agents/ag1/query', JSON_BODY, '/api/agents/ag1/query'],
    ['POST', 'http://api.example.com/agents/query/ag1', JSON_BODY, '/api/agents/ag1/query'],
    ['POST', 'http://app.example.com/api/agents/query/ag1', JSON_BODY, '/api/agents/ag1/query'],
    ['POST', 'http://app.example.com/datastores/query/ds1', JSON_BODY, '/api/datastores/ds1/query'],
    ['POST', 'http://app.example.com/api/datastores/query/ds1', JSON_BODY, '/api/datastores/ds1/query'],
    ['POST', 'http://app.example.com/query/ds1', JSON_BODY, '/api/query/ds1'],
    ['POST', 'http://ds1.databerry.example/query', JSON_BODY, '/api/query/ds1'],
    ['GET', 'http://api.example.com/datastores/ds1', BEARER, '/api/datastores/ds1'],
    ['PATCH', 'http://api.example.com/agents/ag1', { ...BEARER, ...JSON_BODY }, '/api/agents/ag1'],
    ['GET', 'http://api.example.com/datasources/d1', BEARER, '/api/datasources/d1'],
    ['POST', 'http://api.example.com/datastores/upsert/ds1', JSON_BODY, '/api/datastores/upsert/ds1'],
  ]
  for (const [method, url, headers, target] of cases) {
    test(`${method} ${new URL(url).host}${new URL(url).pathname} answers as ${target}`, () => {
      expect(through(method, url, headers).rewrittenTo).toBe(target)
    })
  }

  test("a browser's GET of /agents/{id} stays the dashboard page, and /api paths stay themselves", () => {
    expect(through('GET', 'http://app.example.com/agents/ag1', { accept: 'text/html' }).rewrittenTo).toBeNull()
    expect(through('GET', 'http://app.example.com/datastores', {}).rewrittenTo).toBeNull()
    expect(through('POST', 'http://app.example.com/api/agents/ag1/query', JSON_BODY).rewrittenTo).toBeNull()
    expect(through('POST', 'http://localhost:3000/query', JSON_BODY).rewrittenTo).toBeNull()
  })
})

describe('Databerry query: POST /query/{datastoreId}', () => {
  async function setUp() {
    const tenant = await createTenant()
    const texts = ['kettle warranty one', 'kettle warranty two', 'kettle warranty three', 'kettle warranty four', 'kettle warranty five']
    const { datastoreId } = await seedDatastore(tenant, texts.map(text => ({ text })))
    const ask = (body: unknown, search = '') =>
      call(databerryQuery.POST, `/api/query/${datastoreId}${search}`, { method: 'POST', headers: tenant.headers, body, params: { datastoreId } })
    return { ask }
  }

  test('answers {results: [fragments]}, three by default', async () => {
    const { ask } = await setUp()
    const res = await ask({ query: 'kettle warranty' })
    expect(res.status).toBe(200)
    expect(Object.keys(res.json)).toEqual(['results'])
    expect(res.json.results).toHaveLength(3)
    expect(res.json.results[0]).toMatchObject({ text: expect.stringContaining('kettle'), score: expect.any(Number), datasource_id: expect.any(String) })
  })

  test('takes topK from the body, else from ?topK=', async () => {
    const { ask } = await setUp()
    expect((await ask({ query: 'kettle warranty', topK: 1 })).json.results).toHaveLength(1)
    expect((await ask({ query: 'kettle warranty' }, '?topK=4')).json.results).toHaveLength(4)
    expect((await ask({ query: 'kettle warranty' }, '?topK=lots')).status).toBe(400)
  })

  test('needs a key', async () => {
    const res = await call(databerryQuery.POST, '/api/query/x', { method: 'POST', body: { query: 'q' }, params: { datastoreId: 'x' } })
    expect(res.status).toBe(401)
  })
})

describe('CORS', () => {
  const ORIGIN = { origin: 'https://shop.example' }
  const preflight = (url: string, method: string, extra: Record<string, string> = {}) =>
    through('OPTIONS', url, { ...ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'content-type', ...extra }).res

  test('a preflight of the public routes is answered for any origin', () => {
    for (const [url, method] of [
      ['http://app.example.com/api/agents/ag1/query', 'POST'],
      ['http://app.example.com/api/agents/ag1', 'GET'],
      ['http://app.example.com/api/conversations/c1', 'GET'],
      ['http://api.example.com/agents/ag1/query', 'POST'],
    ]) {
      const res = preflight(url, method)
      expect(res.status, url).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-headers')).toContain('content-type')
    }
  })

  test('responses of the public routes carry Access-Control-Allow-Origin', () => {
    const res = through('POST', 'http://app.example.com/api/agents/ag1/query', { ...ORIGIN, ...JSON_BODY }).res
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('keyed routes answer no origin by default', () => {
    const res = preflight('http://app.example.com/api/datastores/ds1/query', 'POST')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const get = through('GET', 'http://app.example.com/api/datastores', { ...ORIGIN, ...BEARER }).res
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
    expect(preflight('http://app.example.com/api/agents/ag1', 'PATCH').headers.get('access-control-allow-origin')).toBeNull()
  })

  test('keyed routes answer the origins listed in CORS_ORIGINS', () => {
    process.env.CORS_ORIGINS = 'https://shop.example, https://other.example'
    try {
      const res = preflight('http://app.example.com/api/datastores/ds1/query', 'POST')
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example')
      expect(preflight('http://app.example.com/api/datastores', 'GET', { origin: 'https://evil.example' }).headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      delete process.env.CORS_ORIGINS
    }
  })
})

test('the alias of an agent query reaches the same agent', async () => {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant)
  expect(through('POST', `http://api.example.com/agents/${agent.id}/query`, { ...JSON_BODY, ...tenant.headers }).rewrittenTo).toBe(`/api/agents/${agent.id}/query`)
})
