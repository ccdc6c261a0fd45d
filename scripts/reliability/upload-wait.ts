// How long API requests wait while a large upload is ingested (docs/reliability.md, section 3), against a running
// server (`npm start`, a fresh DATA_DIR): a datastore, the file uploaded, then every 50 ms `GET /api/datastores` and the
// datasource's `GET /api/datasources/{id}` until it is synched, and how long those answers took.
//   npx tsx scripts/reliability/upload-wait.ts <base URL> <API key> <file> [content type, text/plain by default]
import fs from 'node:fs'
import path from 'node:path'

const [base, key, file, contentType = 'text/plain'] = process.argv.slice(2)
if (!base || !key || !file) throw new Error('usage: upload-wait.ts <base URL> <API key> <file>')
const auth = { Authorization: `Bearer ${key}` }

async function json(pathname: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(new URL(pathname, base), { ...init, headers: { ...auth, ...init.headers } })
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, unknown>
}

const store = await json('/api/datastores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'upload-wait', type: 'qdrant' }) })
const form = new FormData()
form.set('type', 'file')
form.set('datastoreId', String(store.id))
form.set('file', new Blob([fs.readFileSync(file)], { type: contentType }), path.basename(file))
const started = performance.now()
const datasource = await json('/api/datasources', { method: 'POST', body: form })
const waits: number[] = []
// the slowest few: how long, and when they were asked (seconds after the upload) and what
const slowest: { ms: number; atS: number; path: string }[] = []
const timed = async <T>(pathname: string, ask: () => Promise<T>): Promise<T> => {
  const asked = performance.now()
  const result = await ask()
  const ms = performance.now() - asked
  waits.push(ms)
  slowest.push({ ms: Math.round(ms), atS: Number(((asked - started) / 1000).toFixed(1)), path: pathname })
  slowest.sort((a, b) => b.ms - a.ms).splice(3)
  return result
}
let status = ''
while (!['synched', 'error', 'usage_limit_reached'].includes(status)) {
  await timed('/api/datastores', () => json('/api/datastores'))
  status = String((await timed('/api/datasources/{id}', () => json(`/api/datasources/${datasource.id}`))).status)
  await new Promise(resolve => setTimeout(resolve, 50))
}
const sorted = [...waits].sort((a, b) => a - b)
const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))])
console.log(JSON.stringify({
  status,
  seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  requests: waits.length,
  p50Ms: at(0.5),
  p90Ms: at(0.9),
  slowestMs: Math.round(sorted.at(-1) ?? 0),
  over500Ms: waits.filter(w => w > 500).length,
  slowest,
}))
