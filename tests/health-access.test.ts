import { afterEach, describe, expect, test } from 'vitest'
import * as health from '@/app/api/health/route'
import { getDatabase } from '@/lib/db/client'
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

// Issue 22, point 10: a large file's chunks are written in one transaction of several seconds; on the embedded
// database every statement waits for it, and a load balancer's check must not read that as the service being down.
describe('/api/health while the embedded database is in a long write', () => {
  test.runIf(process.env.TEST_DATABASE !== 'postgres')('answers within about a second, ok and busy, then plain ok once the write ends', async () => {
    const { sql } = await getDatabase()
    let writeEnded = false
    const writing = sql.transaction(async tx => {
      // a write whose statements keep ending, as replaceRows' INSERTs do
      while (!writeEnded) {
        await tx.query('SELECT 1')
        await new Promise(resolve => setTimeout(resolve, 50))
      }
    })
    await new Promise(resolve => setTimeout(resolve, 200))
    const started = performance.now()
    const busy = await call(health.GET, '/api/health')
    const waited = performance.now() - started
    expect(busy.status).toBe(200)
    expect(busy.json).toEqual({ status: 'ok', database: 'pglite', databaseBusy: true })
    expect(waited, 'ms the check waited').toBeLessThan(1_000 + 1_500) // the patience, and the rest of a loaded machine
    writeEnded = true
    await writing
    expect((await call(health.GET, '/api/health')).json).toEqual({ status: 'ok', database: 'pglite' })
  })
})
