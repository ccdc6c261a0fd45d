import { describe, expect, test } from 'vitest'
import * as apiKeys from '@/app/api/api-keys/route'
import * as catchAll from '@/app/api/[...path]/route'
import * as datastores from '@/app/api/datastores/route'
import * as health from '@/app/api/health/route'
import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { call, expectErrorBody } from './helpers/http'
import { createTenant } from './helpers/tenants'

describe('the HTTP edge', () => {
  test('malformed JSON is a 400 with the JSON error body', async () => {
    const { headers } = await createTenant()
    const res = await call(apiKeys.POST, '/api/api-keys', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"name": "x",',
    })
    expect(res.status).toBe(400)
    expectErrorBody(res.json, 'invalid_request')
  })

  test('a body that fails validation is a 400 naming the field', async () => {
    const { headers } = await createTenant()
    const res = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers, body: { name: 42 } })
    expect(res.status).toBe(400)
    expect(res.json.error.details[0].path).toBe('name')
  })

  test('a wrong content type is a 415', async () => {
    const { headers } = await createTenant()
    const res = await call(apiKeys.POST, '/api/api-keys', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: '{"name":"x"}',
    })
    expect(res.status).toBe(415)
    expectErrorBody(res.json, 'unsupported_media_type')
  })

  test('a body over the configured size is a 413, whatever Content-Length says', async () => {
    const { headers } = await createTenant()
    process.env.LIMIT_BODY_SIZE_MB = '1'
    try {
      const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) })
      const res = await call(apiKeys.POST, '/api/api-keys', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: big })
      expect(res.status).toBe(413)
      expectErrorBody(res.json, 'payload_too_large')
    } finally {
      delete process.env.LIMIT_BODY_SIZE_MB
    }
  })

  test('an unknown /api path is a JSON 404', async () => {
    const res = await call(catchAll.POST, '/api/nothing/here', { method: 'POST' })
    expect(res.status).toBe(404)
    expectErrorBody(res.json, 'not_found')
  })

  test('a wrong method is a JSON 405 with Allow', async () => {
    const { headers } = await createTenant()
    const res = await call(datastores.PUT, '/api/datastores', { method: 'PUT', headers })
    expect(res.status).toBe(405)
    expectErrorBody(res.json, 'method_not_allowed')
    expect(res.headers.get('allow')).toContain('GET')
  })

  test('an unexpected error is a 500 with an error id and no stack trace', async () => {
    const { GET } = endpoints('/api/x', {
      GET: endpoint({
        summary: 'A handler with a bug',
        access: 'public',
        response: z.object({}),
        handler: async () => {
          throw new Error('secret internals at /srv/app/lib/x.ts:12')
        },
      }),
    })
    const res = await call(GET, '/api/x')
    expect(res.status).toBe(500)
    expectErrorBody(res.json, 'internal_error')
    expect(res.json.error.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.text).not.toContain('secret internals')
    expect(res.text).not.toContain('.ts:')
  })

  test('health answers without a key, with status and database kind only (issue 22)', async () => {
    const res = await call(health.GET, '/api/health')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ status: 'ok', database: process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite' })
  })
})
