import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { startFakeOpenAI } from '@/e2e/support/fake-openai-server.mjs'
import { getPrisma } from '@/lib/db/client'
import { chunkSections, DEFAULT_CHUNKING } from '@/lib/ingest/chunker'
import { loadOriginal } from '@/lib/ingest/loaders'

// The scale-out placement under faults (README "Running on PostgreSQL and scaling out"): two web processes of the
// production build with WORKER=off and two `npm run worker` processes on one PostgreSQL (this file's schema), a batch
// of upserts and files spread over both web processes, then SIGKILL of a worker holding leases mid-sync and of a web
// process. Needs `next build` first and TEST_DATABASE_URL: scripts/test.mjs runs it after the end-to-end tests.
const ROOT = path.resolve(import.meta.dirname, '..')
const LEASE_SECONDS = 8
const API_KEY = 'ads_multiprocess_key_0123456789'
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-multiprocess-'))
const children: ChildProcess[] = []

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  fs.rmSync(tmp, { recursive: true, force: true })
})

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise(resolve => server.close(resolve))
  return port
}

function start(name: string, args: string[], env: Record<string, string>): { child: ChildProcess; output: string[] } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const output: string[] = []
  child.stdout!.on('data', d => output.push(String(d)))
  child.stderr!.on('data', d => output.push(String(d)))
  children.push(child)
  return { child, output }
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

const api = (port: number, route: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}/api${route}`, { ...init, headers: { authorization: `Bearer ${API_KEY}`, ...(init.body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...init.headers } })

function documentText(n: number): string {
  const words = ['lease', 'worker', 'postgres', 'chunk', 'vector', 'index', 'sync', 'queue', 'blob', 'schema', 'pool', 'fault']
  return Array.from({ length: 900 + (n % 7) * 150 }, (_, i) => `${words[(i * 7 + n) % words.length]}${i % 13 === 0 ? '.' : ''}`).join(' ')
}

async function expectedChunks(text: string, contentType: string): Promise<number> {
  return chunkSections(await loadOriginal(new TextEncoder().encode(text), contentType), DEFAULT_CHUNKING).length
}

describe.skipIf(!process.env.TEST_SCHEMA_URL)('two web processes and two workers on one PostgreSQL, under faults', () => {
  test('every datasource ends synched with exact chunks; both workers took jobs; a killed worker\'s leases are taken over; the surviving web process serves throughout', async () => {
    const fake = await startFakeOpenAI({ port: 0 })
    // a slow embeddings model keeps jobs mid-sync long enough to be interrupted
    fake.setBehaviour({ embeddingsDelayMs: 250 })
    const dataDir = path.join(tmp, 'data')
    const env = {
      DATABASE_URL: process.env.TEST_SCHEMA_URL!, DATA_DIR: dataDir, HOST: '127.0.0.1', NEXTAUTH_SECRET: 'multiprocess-secret-multiprocess-secret',
      INIT_ADMIN_PASSWORD: 'multiprocess-password', INIT_API_KEY: API_KEY, OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL,
      EMBEDDINGS_DIMENSIONS: '64', WORKER_LEASE_SECONDS: String(LEASE_SECONDS), WORKER_CONCURRENCY: '2', LOG_LEVEL: 'info', NEXT_TELEMETRY_DISABLED: '1',
    }
    const ports = [await freePort(), await freePort()]
    const webs = ports.map(port => start(`web ${port}`, ['scripts/serve.mjs'], { ...env, PORT: String(port), WORKER: 'off' }))
    // what `npm run worker` runs, in this very process (tsx's CLI would run it in a child that SIGKILL misses)
    const tsx = ['--conditions=react-server', '--import', 'tsx', 'scripts/worker.ts']
    const workers = [start('worker 1', tsx, env), start('worker 2', tsx, env)]
    const workerIds = await Promise.all(workers.map(w => until('a worker to start', async () => w.output.join('').match(/"workerId":"([^"]+)"/)?.[1])))
    for (const port of ports) await until(`web ${port} to serve`, async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok)
    expect(await (await fetch(`http://127.0.0.1:${ports[1]}/api/health`)).json()).toMatchObject({ database: 'postgres' })

    // a datastore made on one web process is used through the other
    const store = await (await api(ports[0], '/datastores', { method: 'POST', body: JSON.stringify({ name: 'scale-out' }) })).json()
    const expected = new Map<string, number>()
    const upserts = await Promise.all([0, 1].map(async half => {
      const documents = Array.from({ length: 40 }, (_, i) => ({ text: documentText(half * 40 + i), name: `doc ${half * 40 + i}` }))
      const response = await api(ports[half], `/datastores/upsert/${store.id}`, { method: 'POST', body: JSON.stringify({ documents }) })
      expect(response.status).toBe(200)
      const { ids } = (await response.json()) as { ids: string[] }
      await Promise.all(ids.map(async (id, i) => expected.set(id, await expectedChunks(documents[i].text, 'text/plain'))))
    }))
    expect(upserts).toHaveLength(2)
    for (let i = 0; i < 4; i++) {
      const text = `# File ${i}\n\n${documentText(100 + i)}\n\n${documentText(200 + i)}`
      const form = new FormData()
      form.set('type', 'file'); form.set('datastoreId', store.id); form.set('fileName', `file-${i}.md`)
      form.set('file', new Blob([text], { type: 'text/markdown' }), `file-${i}.md`)
      const response = await api(ports[i % 2], '/datasources', { method: 'POST', body: form })
      expect(response.status).toBeLessThan(300)
      expected.set(((await response.json()) as { id: string }).id, await expectedChunks(text, 'text/markdown'))
    }

    // who holds which lease, seen every 100 ms; the surviving web process's health, every 250 ms
    const prisma = await getPrisma()
    const owners = new Map<string, Set<string>>()
    const takenOver = new Map<string, number>()
    let killedAt = 0
    let deadLeases: string[] = []
    let deadLeaseExpiry = 0
    let deadWorker = ''
    let watching = true
    const watch = (async () => {
      while (watching) {
        const running = await prisma.datasource.findMany({ where: { datastoreId: store.id, leaseOwner: { not: null } }, select: { id: true, leaseOwner: true } })
        for (const { id, leaseOwner } of running) owners.set(leaseOwner!, (owners.get(leaseOwner!) ?? new Set()).add(id))
        if (killedAt) {
          // a dead lease is taken over once another worker holds it, or settled it already
          const rows = await prisma.datasource.findMany({ where: { id: { in: deadLeases } }, select: { id: true, leaseOwner: true } })
          for (const { id, leaseOwner } of rows) if (leaseOwner !== deadWorker && !takenOver.has(id)) takenOver.set(id, Date.now() - killedAt)
        }
        await new Promise(r => setTimeout(r, 100))
      }
    })()
    const healthFailures: string[] = []
    const health = (async () => {
      while (watching) {
        const response = await fetch(`http://127.0.0.1:${ports[0]}/api/health`).catch(e => e as Error)
        if (response instanceof Error || !response.ok) healthFailures.push(response instanceof Error ? response.message : String(response.status))
        await new Promise(r => setTimeout(r, 250))
      }
    })()

    // SIGKILL of a worker while it holds leases (whichever is seen holding some first), then of web process 2
    const victim = await until('a worker to hold leases', async () => {
      const held = await prisma.datasource.groupBy({ by: ['leaseOwner'], where: { leaseOwner: { in: workerIds }, status: 'running' }, _count: true })
      return held.length > 0 && workerIds.indexOf(held[0].leaseOwner!) + 1
    }, 60_000).catch(error => { throw new Error(`${error.message}\n${workers.map(w => w.output.join('').slice(-3000)).join('\n---\n')}`) }) - 1
    const [dead, survivor] = [workerIds[victim], workerIds[1 - victim]]
    deadWorker = dead
    workers[victim].child.kill('SIGKILL')
    const killed = Date.now()
    // what it held when it died (a job it settled just before is not a dead lease)
    const leases = await prisma.datasource.findMany({ where: { leaseOwner: dead, status: 'running' }, select: { id: true, leaseExpiresAt: true } })
    deadLeases = leases.map(l => l.id)
    deadLeaseExpiry = Math.min(...leases.map(l => l.leaseExpiresAt!.getTime()))
    killedAt = killed
    webs[1].child.kill('SIGKILL')

    const ids = [...expected.keys()]
    await until('every datasource to settle', async () => (await prisma.datasource.count({ where: { id: { in: ids }, status: { in: ['pending', 'running'] } } })) === 0, 100_000)
    watching = false
    await Promise.all([watch, health])
    await fake.close()

    const rows = await prisma.datasource.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, errorMessage: true, _count: { select: { chunks: true } } } })
    expect(rows.filter(r => r.status !== 'synched').map(r => `${r.id} ${r.status} ${r.errorMessage}`)).toEqual([])
    // exact: no duplicate chunk from a job run twice, none lost
    expect(Object.fromEntries(rows.map(r => [r.id, r._count.chunks]))).toEqual(Object.fromEntries(expected))
    expect(deadLeases.length).toBeGreaterThan(0)
    // both workers took jobs; the survivor took every job the dead one held, within the lease time
    expect(owners.get(dead)?.size).toBeGreaterThan(0)
    expect(owners.get(survivor)?.size).toBeGreaterThan(0)
    // taken over (or already settled by the survivor) within the lease, plus the survivor's idle poll (0.5 s), ours
    // (0.1 s) and a margin for a loaded machine
    const overdue = deadLeases.filter(id => !takenOver.has(id) || takenOver.get(id)! > LEASE_SECONDS * 1000 + 3000)
    expect(overdue.map(id => `${id}: ${takenOver.get(id) ?? 'never'} ms`)).toEqual([])
    // and never before the lease expired: no job ran in two workers at once
    if (Number.isFinite(deadLeaseExpiry)) expect(Math.min(...takenOver.values())).toBeGreaterThanOrEqual(deadLeaseExpiry - killedAt - 500)
    expect(healthFailures).toEqual([])
    // uploaded originals live in Postgres: no process wrote a file under DATA_DIR
    expect(fs.existsSync(path.join(dataDir, 'blobs'))).toBe(false)
    console.log(`multi-process: ${ids.length} datasources, ${rows.reduce((n, r) => n + r._count.chunks, 0)} chunks; jobs seen per worker ${workerIds.map(w => owners.get(w)?.size ?? 0).join('/')}; ${deadLeases.length} leases of the killed worker taken over after ${Math.max(...takenOver.values())} ms (lease ${LEASE_SECONDS} s)`)
  }, 180_000)
})
