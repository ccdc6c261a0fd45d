import { afterEach, describe, expect, test } from 'vitest'
import * as health from '@/app/api/health/route'
import { call } from './helpers/http'
import { createTenant } from './helpers/tenants'

// Issue 22, point 10: without credentials /api/health says only that the service is up and on which database; the
// model endpoints, version and chunk counts are for the organization or a monitor holding METRICS_TOKEN.

afterEach(() => {
  delete process.env.METRICS_TOKEN
})

describe('/api/health', () => {
  test('without credentials: status and database kind only, no internal endpoint or count', async () => {
    process.env.OPENAI_BASE_URL = 'http://model.internal:11434/v1'
    const res = await call(health.GET, '/api/health')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ status: 'ok', database: expect.stringMatching(/^(pglite|postgres)$/) })
    expect(res.text).not.toContain('model.internal')
    delete process.env.OPENAI_BASE_URL
  })

  test('with an API key: the details', async () => {
    const { headers } = await createTenant()
    const res = await call(health.GET, '/api/health', { headers })
    expect(res.json).toMatchObject({ status: 'ok', version: expect.any(String), models: { chat: expect.any(Object), lastFailure: null }, capacity: expect.any(Object) })
  })

  test('?deep=1 with METRICS_TOKEN: the details; a wrong token or no ?deep: the short answer, never an error', async () => {
    process.env.METRICS_TOKEN = 'metrics-token-0123456789'
    const deep = await call(health.GET, '/api/health?deep=1', { headers: { authorization: 'Bearer metrics-token-0123456789' } })
    expect(deep.json.models).toBeDefined()
    for (const [path, token] of [['/api/health?deep=1', 'Bearer wrong-token'], ['/api/health', 'Bearer metrics-token-0123456789'], ['/api/health?deep=1', 'Basic abc']]) {
      const res = await call(health.GET, path, { headers: { authorization: token } })
      expect(res.status, `${path} ${token}`).toBe(200)
      expect(Object.keys(res.json).sort(), `${path} ${token}`).toEqual(['database', 'status'])
    }
  })
})
