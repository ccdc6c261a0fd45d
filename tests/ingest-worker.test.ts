import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { startFakeOpenAI } from '@/e2e/support/fake-openai-server.mjs'
import { getDatabase, getPrisma } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { claimNextDatasource } from '@/lib/ingest/lifecycle'
import { enqueueDatasources } from '@/lib/ingest/lifecycle'
import { runJobs } from '@/lib/ingest/pipeline/run-jobs'

const runJob = async (...[job, ...rest]: [Datasource, ...Parameters<typeof runJobs> extends [unknown, ...infer R] ? R : never]) => (await runJobs([job], ...rest))[0]
import { drainQueue, startWorker } from '@/lib/ingest/worker'
import { storedTokens } from '@/lib/usage/stored-tokens'
import { addText, addWeb, chunksOf, createStore, reload, replaceText } from './fixtures/ingest'

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>
const embeddingCalls = () => fake.requests.filter(r => r.path === '/v1/embeddings').length

beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(async () => {
  await fake.close()
})
function useEmbeddings() {
  process.env.OPENAI_API_KEY = 'sk-test'
  process.env.OPENAI_BASE_URL = fake.baseURL
  process.env.EMBEDDINGS_DIMENSIONS = '64'
}
afterEach(() => {
  delete process.env.OPENAI_API_KEY
  delete process.env.OPENAI_BASE_URL
  delete process.env.EMBEDDINGS_DIMENSIONS
  fake.reset()
})

const PARAGRAPH = 'The kettle warranty lasts two years. Descaling with vinegar every month keeps it working. '

describe('the queue and the worker', () => {
  test('enqueueDatasources puts a datasource in the queued state the worker claims', async () => {
    const org = await createStore()
    const ds = await addText(org, 'First version of the text.')
    await drainQueue()
    await enqueueDatasources([ds.id])
    const queued = await reload(ds.id)
    expect(queued).toMatchObject({ status: 'pending', leaseOwner: null, leaseExpiresAt: null, attempts: 0, errorMessage: null })
    expect(queued.nextRunAt!.getTime()).toBeLessThanOrEqual(Date.now())
    const claimed = await claimNextDatasource('worker-a', 60_000)
    expect(claimed).toMatchObject({ id: ds.id, status: 'running', leaseOwner: 'worker-a', attempts: 1 })
    expect(claimed!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 50_000)
    await runJob(claimed!, 'worker-a', { leaseMs: 60_000 })
    expect((await reload(ds.id)).status).toBe('synched')
  })

  test('chunks are embedded in batches by the provider, and carry the custom_id', async () => {
    useEmbeddings()
    const org = await createStore({ chunkSize: 32, chunkOverlap: 0 })
    const ds = await addText(org, PARAGRAPH.repeat(150), { customId: 'tenant-7' })
    await drainQueue()
    const chunks = await chunksOf(ds.id)
    expect((await reload(ds.id)).status).toBe('synched')
    expect(chunks.length).toBeGreaterThan(96)
    expect(chunks.every(c => c.dims === 64 && c.custom_id === 'tenant-7')).toBe(true)
    expect(chunks.map(c => c.position)).toEqual(chunks.map((_, i) => i))
    expect(embeddingCalls()).toBe(Math.ceil(chunks.length / 96))
  })

  test('without an embeddings provider the chunks are stored without embeddings', async () => {
    const org = await createStore()
    const ds = await addText(org, PARAGRAPH)
    await drainQueue()
    expect((await chunksOf(ds.id)).map(c => c.dims)).toEqual([null])
    expect((await reload(ds.id)).status).toBe('synched')
  })

  test('an unchanged re-sync skips chunking and embedding; a changed one replaces the chunks', async () => {
    useEmbeddings()
    const org = await createStore()
    const ds = await addText(org, PARAGRAPH.repeat(3))
    await drainQueue()
    const first = await reload(ds.id)
    const before = await chunksOf(ds.id)
    const calls = embeddingCalls()
    expect(calls).toBeGreaterThan(0)

    await enqueueDatasources([ds.id])
    await drainQueue()
    const again = await reload(ds.id)
    expect(again.status).toBe('synched')
    expect(again.lastSynch!.getTime()).toBeGreaterThan(first.lastSynch!.getTime())
    expect(again.contentHash).toBe(first.contentHash)
    expect(embeddingCalls()).toBe(calls)
    expect((await chunksOf(ds.id)).map(c => c.id)).toEqual(before.map(c => c.id))

    await replaceText(ds.id, 'A completely new text about toasters.')
    await enqueueDatasources([ds.id])
    await drainQueue()
    const changed = await chunksOf(ds.id)
    expect(changed.map(c => c.text)).toEqual(['A completely new text about toasters.'])
    expect(embeddingCalls()).toBe(calls + 1)
    expect((await reload(ds.id)).contentHash).not.toBe(first.contentHash)
  })

  test('a job whose lease expired (simulated worker death) completes once, without duplicates', async () => {
    const org = await createStore({ chunkSize: 40, chunkOverlap: 0 })
    const ds = await addText(org, PARAGRAPH.repeat(8))
    // a worker claims the job and dies: its lease runs out
    const orphan = await claimNextDatasource('dead-worker', 1)
    expect(orphan!.id).toBe(ds.id)
    await new Promise(r => setTimeout(r, 20))
    expect(await drainQueue({ workerId: 'rescuer' })).toBe(1)
    const synched = await reload(ds.id)
    const chunks = await chunksOf(ds.id)
    expect(synched).toMatchObject({ status: 'synched', attempts: 0, leaseOwner: null, nbChunks: chunks.length })
    expect(chunks.length).toBeGreaterThan(1)
    // the "dead" worker was only slow: when it finishes, its expired lease is not honoured and nothing is written
    expect(await runJob(orphan!, 'dead-worker', { leaseMs: 60_000 })).toBe('lease_lost')
    const after = await chunksOf(ds.id)
    expect(after.map(c => c.id)).toEqual(chunks.map(c => c.id))
    expect(await reload(ds.id)).toMatchObject({ status: 'synched', nbChunks: chunks.length })
    expect(await drainQueue()).toBe(0)
  })

  test('a job under a live lease is not taken by another worker, and concurrent claims never share a job', async () => {
    const org = await createStore()
    const a = await addText(org, 'One.')
    const b = await addText(org, 'Two.')
    const claims = await Promise.all([claimNextDatasource('w1', 60_000), claimNextDatasource('w2', 60_000), claimNextDatasource('w3', 60_000)])
    const ids = claims.filter(Boolean).map(c => c!.id)
    expect(ids.sort()).toEqual([a.id, b.id].sort())
    expect(await drainQueue()).toBe(0)
  })

  test('a job killing its worker again and again ends in error after the maximum attempts', async () => {
    const org = await createStore()
    const ds = await addText(org, 'Poison.')
    for (let i = 0; i < 3; i++) {
      await claimNextDatasource(`dying-${i}`, 1)
      await new Promise(r => setTimeout(r, 5))
    }
    await drainQueue()
    const failed = await reload(ds.id)
    expect(failed.status).toBe('error')
    expect(failed.errorMessage).toBe('The synchronisation was interrupted 3 times (the worker stopped while running it)')
  })

  test('a datasource deleted while it syncs writes nothing', async () => {
    const org = await createStore()
    const ds = await addText(org, 'Soon gone.')
    const job = await claimNextDatasource('w', 60_000)
    await (await getPrisma()).datasource.delete({ where: { id: ds.id } })
    expect(await runJob(job!, 'w', { leaseMs: 60_000 })).toBe('lease_lost')
    const { sql } = await getDatabase()
    expect(await sql.query(`SELECT id FROM "Chunk" WHERE "datasourceId" = $1`, [ds.id])).toEqual([])
  })
})

describe('retries', () => {
  let server: http.Server
  let hits = 0
  let base = ''
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++
      res.writeHead(503, { 'content-type': 'text/plain' }).end('busy')
    })
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>(r => server.close(() => r())))

  test('a transient failure is retried with exponential backoff, then ends in error', async () => {
    process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
    try {
      const org = await createStore()
      const ds = await addWeb(org, 'web_page', { source_url: `${base}/busy` })
      const prisma = await getPrisma()
      const delays: number[] = []
      for (let attempt = 1; attempt <= 2; attempt++) {
        const started = Date.now()
        await drainQueue()
        const waiting = await reload(ds.id)
        expect(waiting).toMatchObject({ status: 'pending', attempts: attempt, leaseOwner: null })
        expect(waiting.errorMessage).toContain('answered 503')
        expect(waiting.errorMessage).toContain(`attempt ${attempt} of 3; retrying`)
        delays.push((waiting.nextRunAt!.getTime() - started) / 1000)
        expect(await drainQueue()).toBe(0) // not due yet
        await prisma.datasource.update({ where: { id: ds.id }, data: { nextRunAt: new Date(Date.now() - 1000) } })
      }
      expect(delays[0]).toBeGreaterThan(29)
      expect(delays[0]).toBeLessThan(32)
      expect(delays[1]).toBeGreaterThan(59)
      expect(delays[1]).toBeLessThan(62)
      await drainQueue()
      const failed = await reload(ds.id)
      expect(failed.status).toBe('error')
      expect(failed.errorMessage).toMatch(/answered 503.*\(gave up after 3 attempts\)$/)
      expect(hits).toBe(3)
    } finally {
      delete process.env.CRAWLER_ALLOW_PRIVATE_HOSTS
    }
  })

  test('an embeddings outage is transient: the datasource waits for a retry', async () => {
    useEmbeddings()
    fake.setBehaviour({ embeddingsMode: 'error' })
    const org = await createStore()
    const ds = await addText(org, PARAGRAPH)
    await drainQueue()
    const waiting = await reload(ds.id)
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 })
    expect(waiting.errorMessage).toContain('embeddings')
    expect(await chunksOf(ds.id)).toEqual([])
  })
})

describe('stored tokens and the usage limit', () => {
  test("a sync that would pass the organization's limit ends usage_limit_reached and keeps the previous chunks", async () => {
    const org = await createStore()
    const prisma = await getPrisma()
    const ds = await addText(org, 'A short first version.')
    await drainQueue()
    const before = await reload(ds.id)
    const chunks = await chunksOf(ds.id)
    await prisma.usageLimit.create({ data: { organizationId: org.organizationId, maxStoredTokens: before.nbTokens + 20 } })

    await replaceText(ds.id, PARAGRAPH.repeat(10))
    await enqueueDatasources([ds.id])
    await drainQueue()
    const limited = await reload(ds.id)
    expect(limited.status).toBe('usage_limit_reached')
    expect(limited.errorMessage).toContain(`over its limit of ${before.nbTokens + 20}`)
    expect(limited).toMatchObject({ nbTokens: before.nbTokens, nbChunks: before.nbChunks, contentHash: before.contentHash })
    expect((await chunksOf(ds.id)).map(c => [c.id, c.text])).toEqual(chunks.map(c => [c.id, c.text]))
    expect(await storedTokens(org.organizationId)).toBe(before.nbTokens)

    // a new datasource over the limit stores nothing
    const other = await addText(org, PARAGRAPH.repeat(5))
    await drainQueue()
    expect((await reload(other.id)).status).toBe('usage_limit_reached')
    expect(await chunksOf(other.id)).toEqual([])
  })

  test("stored tokens are the sum of the organization's datasources, not another's", async () => {
    const a = await createStore()
    const b = await createStore()
    await addText(a, PARAGRAPH)
    await addText(a, PARAGRAPH.repeat(2))
    await addText(b, PARAGRAPH.repeat(4))
    await drainQueue()
    const prisma = await getPrisma()
    const sum = await prisma.datasource.aggregate({ where: { organizationId: a.organizationId }, _sum: { nbTokens: true } })
    expect(await storedTokens(a.organizationId)).toBe(sum._sum.nbTokens)
    expect(await storedTokens(a.organizationId)).toBeGreaterThan(0)
    expect(await storedTokens(b.organizationId)).toBeGreaterThan(await storedTokens(a.organizationId))
  })
})

describe('the background worker', () => {
  test('picks up queued datasources by itself, logs one line per job without secrets, and stops', async () => {
    useEmbeddings()
    process.env.LOG_LEVEL = 'info'
    const lines: string[] = []
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(String(line)))
    const worker = startWorker({ concurrency: 2, pollMs: 20 })
    try {
      const org = await createStore()
      const ds = await addText(org, PARAGRAPH)
      await vi.waitFor(async () => expect((await reload(ds.id)).status).toBe('synched'), { timeout: 10_000, interval: 50 })
    } finally {
      await worker.stop()
      spy.mockRestore()
      process.env.LOG_LEVEL = 'error'
    }
    const finished = lines.map(l => JSON.parse(l)).filter(e => e.message === 'datasource job finished')
    expect(finished).toHaveLength(1)
    expect(finished[0]).toMatchObject({ level: 'info', type: 'text', status: 'synched', chunks: 1 })
    expect(typeof finished[0].ms).toBe('number')
    expect(lines.join('\n')).not.toContain('sk-test')
  })

  test('stopping gives a job still running after the grace period back to the queue', async () => {
    const sockets = new Set<import('node:net').Socket>()
    const hanging = http.createServer(() => {}) // never answers
    hanging.on('connection', s => sockets.add(s))
    await new Promise<void>(r => hanging.listen(0, '127.0.0.1', r))
    process.env.CRAWLER_ALLOW_PRIVATE_HOSTS = '1'
    try {
      const org = await createStore()
      const ds = await addWeb(org, 'web_page', { source_url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow` })
      const worker = startWorker({ concurrency: 1, pollMs: 20 })
      await vi.waitFor(async () => expect(sockets.size).toBe(1), { timeout: 5_000, interval: 20 })
      await worker.stop(100)
      expect(await reload(ds.id)).toMatchObject({ status: 'pending', attempts: 0, leaseOwner: null, leaseExpiresAt: null })
    } finally {
      delete process.env.CRAWLER_ALLOW_PRIVATE_HOSTS
      for (const s of sockets) s.destroy()
      await new Promise<void>(r => hanging.close(() => r()))
    }
  })
})
