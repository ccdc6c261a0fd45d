// Load, bad input and a crash over real HTTP, against `next start` on the embedded default (PGlite in DATA_DIR, the
// worker in-process), with the fake OpenAI-compatible server as model and embeddings provider. Uses the existing
// production build (.next): run `npm run build` first. Prints one JSON report (docs/reliability.md quotes it).
//   node scripts/reliability/http-load.mjs [--port 3917] [--seconds 10]
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startFakeOpenAI } from '../../e2e/support/fake-openai-server.mjs'

const root = path.resolve(import.meta.dirname, '../..')
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const PORT = Number(arg('port', 3917))
const SECONDS = Number(arg('seconds', 10))
const BASE = `http://127.0.0.1:${PORT}`
const KEY = 'ads_reliability_key_0123456789abcdef'
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-http-load-'))
const TOPICS = ['kettle', 'toaster', 'blender', 'oven', 'fridge', 'freezer', 'dishwasher', 'microwave', 'grill', 'mixer']
const doc = i => `Document ${i} about the ${TOPICS[i % 10]}: its warranty lasts ${1 + (i % 5)} years, descaling every ${2 + (i % 7)} weeks, part P-${i * 37}.`
const report = { base: BASE, dataDir }

const fake = await startFakeOpenAI()
fake.setBehaviour({ reply: 'The kettle warranty lasts two years, as the documents say.', delayMs: 5 })

let server
function startServer() {
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(PORT)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      DATA_DIR: dataDir,
      INIT_API_KEY: KEY,
      INIT_ADMIN_PASSWORD: 'reliability-password',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseURL,
      EMBEDDINGS_DIMENSIONS: '64',
      LOG_LEVEL: 'warn',
      ...(process.env.WORKER_LEASE_SECONDS ? { WORKER_LEASE_SECONDS: process.env.WORKER_LEASE_SECONDS } : {}),
      LIMIT_PUBLIC_QUERIES_PER_MINUTE: '100000',
    },
  })
  const log = []
  child.stdout.on('data', d => log.push(d.toString()))
  child.stderr.on('data', d => log.push(d.toString()))
  child.log = log
  return child
}

async function waitHealthy(timeoutMs = 60_000) {
  const started = Date.now()
  for (;;) {
    try {
      const res = await fetch(`${BASE}/api/health`)
      if (res.ok) return Date.now() - started
    } catch {}
    if (Date.now() - started > timeoutMs) throw new Error(`the server did not become healthy: ${server.log.join('').slice(-3000)}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

const auth = { authorization: `Bearer ${KEY}` }
async function api(method, url, body, headers = {}) {
  const started = performance.now()
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: typeof body === 'string' || body === undefined ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let json
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, text, json, ms: performance.now() - started, contentType: res.headers.get('content-type') ?? '' }
}

const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))])
}
const figures = (ms, wallMs, errors) => ({ n: ms.length, errors, p50Ms: pct(ms, 50), p95Ms: pct(ms, 95), maxMs: Math.round(Math.max(...ms)), wallMs: Math.round(wallMs), perSecond: Math.round((ms.length / wallMs) * 10000) / 10 })

async function waitSynched(storeId, expected, timeoutMs = 120_000) {
  const started = Date.now()
  for (;;) {
    const res = await api('GET', `/api/datastores/${storeId}/datasources?status=synched&limit=1`)
    if (res.json?.total >= expected) return Date.now() - started
    if (Date.now() - started > timeoutMs) throw new Error(`only ${res.json?.total} of ${expected} synched after ${timeoutMs} ms`)
    await new Promise(r => setTimeout(r, 200))
  }
}

try {
  server = startServer()
  report.firstStartMs = await waitHealthy()

  const store = (await api('POST', '/api/datastores', { name: 'load' })).json
  // 50 parallel upserts of 2 documents
  let t = performance.now()
  const ups = await Promise.all(Array.from({ length: 50 }, (_, i) => api('POST', `/api/datastores/upsert/${store.id}`, { documents: [{ text: doc(2 * i) }, { text: doc(2 * i + 1) }] })))
  const ids = ups.flatMap(u => u.json?.ids ?? [])
  report.parallelUpserts = { requests: 50, errors: ups.filter(u => u.status !== 200).length, documents: ids.length, wallMs: Math.round(performance.now() - t) }
  report.parallelUpserts.synchedAfterMs = await waitSynched(store.id, 100)

  // 200 concurrent datastore queries
  t = performance.now()
  const queries = await Promise.all(Array.from({ length: 200 }, (_, i) => api('POST', `/api/datastores/${store.id}/query`, { query: `warranty of the ${TOPICS[i % 10]}`, topK: 5 })))
  report.concurrentDatastoreQueries = figures(queries.map(q => q.ms), performance.now() - t, queries.filter(q => q.status !== 200 || !q.json?.length).length)

  // 50 concurrent streaming agent queries
  const agent = (await api('POST', '/api/agents', { name: 'load', datastoreIds: [store.id] })).json
  t = performance.now()
  const streams = await Promise.all(Array.from({ length: 50 }, (_, i) => api('POST', `/api/agents/${agent.id}/query`, { query: `How long is the ${TOPICS[i % 10]} warranty?`, streaming: true })))
  report.concurrentStreamingAgentQueries = figures(streams.map(s => s.ms), performance.now() - t, streams.filter(s => s.status !== 200 || !s.text.includes('data: [DONE]') || s.text.includes('[ERROR]')).length)

  // the rate held: closed loops of 20 concurrent datastore queries for SECONDS
  const sustained = []
  let sustainedErrors = 0
  const until = performance.now() + SECONDS * 1000
  t = performance.now()
  await Promise.all(Array.from({ length: 20 }, async (_, lane) => {
    for (let i = 0; performance.now() < until; i++) {
      const q = await api('POST', `/api/datastores/${store.id}/query`, { query: `descaling ${TOPICS[(lane + i) % 10]}`, topK: 5 })
      sustained.push(q.ms)
      if (q.status !== 200) sustainedErrors++
    }
  }))
  report.sustainedDatastoreQueries = { concurrency: 20, seconds: SECONDS, ...figures(sustained, performance.now() - t, sustainedErrors) }

  // bad input over real HTTP, where Next decodes the path itself
  const bad = [
    ['GET', '/api/datastores/%00'],
    ['GET', '/api/datastores/a%00b/datasources'],
    ['GET', `/api/datastores/${store.id}/datasources?cursor=%00`],
    ['GET', `/api/datastores/${store.id}/datasources?groupId=%00`],
    ['GET', `/api/datastores/${'x'.repeat(300)}`],
    ['POST', '/api/datastores', '{"name":'],
    ['POST', '/api/datastores', '{"name":"a\\u0000b"}'],
    ['POST', '/api/datastores', '['.repeat(10000) + ']'.repeat(10000)],
    ['POST', `/api/datastores/upsert/${store.id}`, JSON.stringify({ documents: [{ text: 'x', metadata: JSON.parse('{"a":"\\ud800"}') }] })],
    ['POST', `/api/datastores/upsert/${store.id}`, `{"documents":[{"text":"${'y'.repeat(21 * 1024 * 1024)}"}]}`],
    ['POST', `/api/datastores/${store.id}/query`, 'not json', { 'content-type': 'text/plain' }],
    ['POST', '/api/datasources', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['DELETE', '/api/agents/%2e%2e'],
    ['PUT', '/api/datastores'],
    ['GET', '/api/no/such/endpoint'],
    ['GET', '/api/auth/session', undefined, { authorization: '' }],
    ['GET', '/api/auth/csrf'],
    ['GET', '/api/auth/providers'],
    ['POST', '/api/auth/callback/credentials', 'email=%00&password=%00&csrfToken=bogus', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['POST', '/api/auth/callback/credentials', '{"email":', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/signout', 'x', { 'content-type': 'text/plain' }],
    ['GET', '/api/auth/nothing/here'],
  ]
  const answers = []
  for (const [method, url, body, headers] of bad) {
    const res = await api(method, url, body, headers)
    answers.push({ method, url: url.slice(0, 80), status: res.status, json: res.contentType.includes('json') })
  }
  report.badInputOverHttp = { tried: answers.length, serverErrors: answers.filter(a => a.status >= 500), statuses: answers.map(a => `${a.method} ${a.url.slice(0, 50)} → ${a.status}`) }

  // kill -9 of the whole service in the middle of a sync, then a restart on the same DATA_DIR
  fake.setBehaviour({ embeddingsDelayMs: 500 })
  const big = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: ${doc(i)}`).join('\n\n')
  const bigStore = (await api('POST', '/api/datastores', { name: 'crash', chunkSize: 64, chunkOverlap: 0 })).json
  const [bigId] = (await api('POST', `/api/datastores/upsert/${bigStore.id}`, { documents: [{ text: big }] })).json.ids
  const embeddingsBefore = fake.requests.filter(r => r.path === '/v1/embeddings').length
  while (fake.requests.filter(r => r.path === '/v1/embeddings').length < embeddingsBefore + 2) await new Promise(r => setTimeout(r, 10))
  server.kill('SIGKILL')
  await new Promise(r => server.once('exit', r))
  fake.setBehaviour({ reply: 'ok', delayMs: 1 })
  const restarted = Date.now()
  server = startServer()
  report.crash = { restartToHealthyMs: await waitHealthy() }
  const started = Date.now()
  for (;;) {
    const ds = (await api('GET', `/api/datasources/${bigId}`)).json
    if (ds.status === 'synched' || ds.status === 'error') {
      const chunks = await api('POST', `/api/datastores/${bigStore.id}/query`, { query: 'Paragraph warranty', topK: 100 })
      report.crash = { ...report.crash, status: ds.status, nbChunks: ds.nbChunks, synchedAfterRestartMs: Date.now() - restarted, leaseSeconds: Number(process.env.WORKER_LEASE_SECONDS ?? 300), fragmentsFound: chunks.json?.length }
      break
    }
    if (Date.now() - started > 600_000) throw new Error(`not synched 10 minutes after the restart: ${JSON.stringify(ds)}`)
    await new Promise(r => setTimeout(r, 250))
  }
  report.ok =
    report.parallelUpserts.errors === 0 && report.parallelUpserts.documents === 100 && report.concurrentDatastoreQueries.errors === 0 &&
    report.concurrentStreamingAgentQueries.errors === 0 && report.sustainedDatastoreQueries.errors === 0 && report.badInputOverHttp.serverErrors.length === 0 &&
    report.crash.status === 'synched'
} catch (error) {
  report.error = error instanceof Error ? error.message : String(error)
  report.ok = false
} finally {
  server?.kill('SIGTERM')
  await new Promise(r => setTimeout(r, 500))
  server?.kill('SIGKILL')
  await fake.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}
console.log(JSON.stringify(report, null, 2))
process.exit(report.ok ? 0 : 1)
