// How long API requests wait while a large upload is ingested (docs/reliability.md, section 3), against a running
// server (`npm start`, a fresh DATA_DIR): a datastore, the file uploaded, then every 50 ms `GET /api/datastores` and the
// datasource's `GET /api/datasources/{id}` until it is synched, and how long those answers took.
//   npx tsx scripts/reliability/upload-wait.ts <base URL> <API key> <file> [content type, text/plain by default]
import fs from 'node:fs'
import path from 'node:path'
import { answerWaits, api } from './answer-waits'

const [base, key, file, contentType = 'text/plain'] = process.argv.slice(2)
if (!base || !key || !file) throw new Error('usage: upload-wait.ts <base URL> <API key> <file>')
const client = api(base, key)

const store = await client.json('/api/datastores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'upload-wait', type: 'qdrant' }) })
const form = new FormData()
form.set('type', 'file')
form.set('datastoreId', String(store.id))
form.set('file', new Blob([fs.readFileSync(file)], { type: contentType }), path.basename(file))
const started = performance.now()
const datasource = await client.json('/api/datasources', { method: 'POST', body: form })
console.log(JSON.stringify(await answerWaits(client, String(datasource.id), started)))
