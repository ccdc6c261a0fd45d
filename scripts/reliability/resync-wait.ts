// How long API requests wait while a large text is synchronised again (docs/reliability.md, section 3), against a
// running server (`npm start`, a fresh DATA_DIR): a datastore, the file's text upserted as a document and synched, then
// upserted again under its id with every paragraph changed (each chunk replaced), and every 50 ms `GET /api/datastores`
// and the datasource's `GET /api/datasources/{id}` until it is synched again, with how long those answers took.
//   npx tsx scripts/reliability/resync-wait.ts <base URL> <API key> <text file>
import fs from 'node:fs'
import { answerWaits, api } from './answer-waits'

const [base, key, file] = process.argv.slice(2)
if (!base || !key || !file) throw new Error('usage: resync-wait.ts <base URL> <API key> <text file>')
const client = api(base, key)
const text = fs.readFileSync(file, 'utf8')

const store = await client.json('/api/datastores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'resync-wait', type: 'qdrant' }) })
const upsert = (document: Record<string, unknown>) =>
  client.json(`/api/datastores/upsert/${store.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ documents: [document] }) })

let started = performance.now()
const [id] = (await upsert({ name: 'resync-wait', text })).ids as string[]
const first = await answerWaits(client, id, started)
started = performance.now()
await upsert({ id, name: 'resync-wait', text: text.replace(/^(?=\S)/gm, 'Revised: ') })
console.log(JSON.stringify({ first, again: await answerWaits(client, id, started) }))
