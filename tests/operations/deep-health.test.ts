// Issue 27: /api/health?deep=1 tells the truth — it probes the model server and the embeddings (cached for
// HEALTH_PROBE_INTERVAL_MS, never two probes at once), checks the database and the workers' heartbeat, and reports
// the model server down within one probe interval after it stops.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as health from '@/app/api/health/route'
import { startFakeOpenAI } from '@/e2e/support/fake-openai-server.mjs'
import { startWorker, stopWorker } from '@/lib/ingest/worker'
import { forgetModelProbe } from '@/lib/models/probe'
import { call } from '../helpers/http'

const TOKEN = 'metrics-token-for-deep-health'
const INTERVAL_MS = 400
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>

beforeAll(async () => {
  fake = await startFakeOpenAI()
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURL, EMBEDDINGS_DIMENSIONS: '64', METRICS_TOKEN: TOKEN, HEALTH_PROBE_INTERVAL_MS: String(INTERVAL_MS) })
})
afterEach(() => forgetModelProbe())
afterAll(async () => {
  for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'EMBEDDINGS_DIMENSIONS', 'METRICS_TOKEN', 'HEALTH_PROBE_INTERVAL_MS']) delete process.env[name]
  await fake.close().catch(() => {})
})

const deepHealth = async () => (await call(health.GET, '/api/health?deep=1', { headers: { authorization: `Bearer ${TOKEN}` } })).json
const probesOf = (path: string) => fake.requests.filter(r => r.path === path).length

describe('GET /api/health?deep=1', () => {
  test('with the model server answering and a worker running: every check up', async () => {
    await startWorker({ concurrency: 1, pollMs: 50 })
    try {
      await expect.poll(async () => (await deepHealth()).checks.worker.status).toBe('up')
      const report = await deepHealth()
      expect(report.status).toBe('ok')
      expect(report.checks.model).toMatchObject({ status: 'up', message: null })
      expect(report.checks.embeddings).toMatchObject({ status: 'up', message: null })
      expect(report.checks.database.status).toBe('up')
      expect(report.checks.worker.alive).toBe(1)
    } finally {
      await stopWorker(1000)
    }
  })

  test('without a worker: the worker check is down and says to start one', async () => {
    const report = await deepHealth()
    expect(report.status).toBe('degraded')
    expect(report.checks.worker.status).toBe('down')
    expect(report.checks.worker.message).toMatch(/No sync worker has reported/)
  })

  test('many health checks within one interval make one probe, never two at once', async () => {
    // an interval no busy machine outlasts: ten checks at once and one after them all fall within it
    process.env.HEALTH_PROBE_INTERVAL_MS = '60000'
    try {
      const before = probesOf('/v1/models')
      await Promise.all(Array.from({ length: 10 }, deepHealth))
      await deepHealth()
      expect(probesOf('/v1/models') - before).toBe(1)
      expect(probesOf('/v1/embeddings')).toBeGreaterThanOrEqual(1)
    } finally {
      process.env.HEALTH_PROBE_INTERVAL_MS = String(INTERVAL_MS)
    }
  })

  test('the model server stops: deep health reports it down within one probe interval, in plain words', async () => {
    expect((await deepHealth()).checks.model.status).toBe('up')
    const stoppedAt = Date.now()
    await fake.close()
    let report = await deepHealth()
    await expect.poll(async () => (report = await deepHealth()).checks.model.status, { timeout: 5000, interval: 50 }).toBe('down')
    // the probe that found it down began within one interval (and the poll's step) of the stop
    expect(Date.parse(report.checks.model.checkedAt) - stoppedAt).toBeLessThan(INTERVAL_MS + 1500)
    expect(report.status).toBe('degraded')
    expect(report.checks.model.message).toBe(`could not reach ${fake.baseURL}: connection refused`)
    expect(report.checks.embeddings.status).toBe('down')
  })

  test('without credentials ?deep=1 is the short answer and probes nothing', async () => {
    const res = await call(health.GET, '/api/health?deep=1')
    expect(Object.keys(res.json).sort()).toEqual(['database', 'status'])
  })
})
