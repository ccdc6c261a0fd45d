// `npm run bench -- floor --beir DIR`: calibrates the default relevance floor of agents (lib/domain/limits.ts
// DEFAULT_MIN_SCORE, issue 22) on the score scale a new user gets (full-text, no embeddings provider), on two corpora:
// a BEIR set (SciFact's 5,183 abstracts and its training questions with judgments) and the small shop of
// bench/answers/ (23 sections). For each floor it reports
//   - nDCG@10 of the BEIR questions with the floor applied (fragments below it left out): must not drop;
//   - how many judged-relevant hits in the top 10 (BEIR) and expected sections (shop) the floor would drop;
//   - how many off-topic questions (shop questions against SciFact, SciFact questions against the shop, the shop's
//     unanswerable questions, a few a visitor might type anywhere) it turns into "no fragment".
// Every document goes through the upsert route and the sync worker; every question through the datastore query
// route (topK 10), as in bench:retrieval.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { createApiKey } from '@/lib/auth/api-keys'
import { getDatabase, useDatabase } from '@/lib/db/client'
import { drainQueue } from '@/lib/ingest/worker'
import { machine, round, serveRoutes } from './datastore-support'
import { mean, measures, readBeir } from './retrieval'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const FLOORS = [0, 0.02, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3]
// what a visitor of any site might ask, answered by neither corpus
const ANYWHERE = [
  'Do you sell espresso machines?', 'What are your opening hours?', 'How do I reset my password?', 'Can I pay with PayPal?',
  'What is the staff cafeteria door code?', 'Who won the football match yesterday?', 'Tell me a joke', 'hello',
  'Where is your office?', 'Do you ship to Canada?', 'What is the weather tomorrow?', 'I want to cancel my subscription',
]

type Hit = { doc: string; score: number }

export async function run(argv: string[] = []): Promise<void> {
  const i = argv.indexOf('--beir')
  const dir = i >= 0 ? argv[i + 1] : process.env.BENCH_BEIR
  if (!dir) throw new Error('usage: npm run bench -- floor --beir DIR')
  const beir = readBeir(dir, 'train')
  const shop = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/answers/corpus.json'), 'utf8')) as { documents: { name: string; sections: { id: string; text: string }[] }[] }
  const shopQuestions = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/answers/questions.json'), 'utf8')) as { direct: { q: string; expect: string }[]; unanswerable: { q: string }[] }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-floor-'))
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'DATABASE_URL']) delete process.env[key]
  Object.assign(process.env, { DATA_DIR: dataDir, WORKER: 'off', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' })
  const db = await getDatabase()
  const server = await serveRoutes([
    [/^\/api\/datastores\/upsert\/([^/]+)$/, ['datastoreId'], upsert.POST as never],
    [/^\/api\/datastores\/([^/]+)\/query$/, ['id'], datastoreQuery.POST as never],
  ])
  try {
    const org = await db.prisma.organization.create({ data: { name: 'bench' } })
    const { secret } = await createApiKey({ organizationId: org.id, actor: { type: 'user', userId: 'bench' } }, 'bench')
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
    const store = async (name: string, docs: { id: string; text: string }[]) => {
      const s = await db.prisma.datastore.create({ data: { organizationId: org.id, name } })
      for (let k = 0; k < docs.length; k += 500) {
        const documents = docs.slice(k, k + 500).map(d => ({ text: d.text, name: d.id, metadata: { doc: d.id } }))
        const res = await fetch(`${server.url}/api/datastores/upsert/${s.id}`, { method: 'POST', headers, body: JSON.stringify({ documents }) })
        if (res.status !== 200) throw new Error(`upsert failed: ${res.status}`)
        await res.arrayBuffer()
      }
      return s.id
    }
    const scifact = await store('scifact', beir.docs)
    const shopStore = await store('shop', shop.documents.flatMap(d => d.sections))
    await drainQueue()
    const ask = async (storeId: string, query: string): Promise<Hit[]> => {
      const res = await fetch(`${server.url}/api/datastores/${storeId}/query`, { method: 'POST', headers, body: JSON.stringify({ query, topK: 10 }) })
      const fragments = (await res.json()) as { score: number; metadata: { doc?: string } }[]
      return fragments.map(f => ({ doc: String(f.metadata.doc), score: f.score }))
    }
    const answers = await askAll(ask, scifact, shopStore, beir, shopQuestions)
    report(answers, beir.docs.length, beir.questions.length)
  } finally {
    await server.close()
    await db.close()
    useDatabase(undefined)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

type Ask = (storeId: string, query: string) => Promise<Hit[]>
interface Answers {
  onTopicBeir: { hits: Hit[]; relevant: Map<string, number> }[]
  onTopicShop: { hits: Hit[]; expect: string }[]
  offTopic: { label: string; top: number }[]
}

/** Every question of the bench asked of the datastore it is on topic for, and of the one it is not. */
async function askAll(ask: Ask, scifact: string, shopStore: string, beir: ReturnType<typeof readBeir>, shopQuestions: { direct: { q: string; expect: string }[]; unanswerable: { q: string }[] }): Promise<Answers> {
  const onTopicBeir = [] as { hits: Hit[]; relevant: Map<string, number> }[]
  for (const q of beir.questions) onTopicBeir.push({ hits: await ask(scifact, q.text), relevant: beir.qrels.get(q.id)! })
  const onTopicShop = [] as { hits: Hit[]; expect: string }[]
  for (const q of shopQuestions.direct) onTopicShop.push({ hits: await ask(shopStore, q.q), expect: q.expect })
  const offTopic = [] as { label: string; top: number }[]
  const top = (hits: Hit[]) => hits[0]?.score ?? 0
  for (const q of [...shopQuestions.direct, ...shopQuestions.unanswerable]) offTopic.push({ label: 'shop question on SciFact', top: top(await ask(scifact, q.q)) })
  for (const q of beir.questions.slice(0, 100)) offTopic.push({ label: 'SciFact question on the shop', top: top(await ask(shopStore, q.text)) })
  for (const q of shopQuestions.unanswerable) offTopic.push({ label: 'unanswerable shop question on the shop', top: top(await ask(shopStore, q.q)) })
  for (const q of ANYWHERE) {
    offTopic.push({ label: 'visitor question on SciFact', top: top(await ask(scifact, q)) })
    offTopic.push({ label: 'visitor question on the shop', top: top(await ask(shopStore, q)) })
  }
  return { onTopicBeir, onTopicShop, offTopic }
}

/** The score distributions and, per floor, what it keeps and what it refuses. */
function report({ onTopicBeir, onTopicShop, offTopic }: Answers, docs: number, questions: number): void {
  console.log(`machine: ${machine()}; ${docs} SciFact documents, ${questions} training questions; ${onTopicShop.length} shop questions; ${offTopic.length} off-topic questions`)
  const relevantScores = onTopicBeir.flatMap(r => r.hits.filter(h => r.relevant.has(h.doc)).map(h => h.score)).sort((a, b) => a - b)
  const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]
  console.log(`SciFact relevant hits in the top 10: ${relevantScores.length}; score p1 ${pct(relevantScores, 1)}, p5 ${pct(relevantScores, 5)}, p50 ${pct(relevantScores, 50)}`)
  const offScores = offTopic.map(o => o.top).sort((a, b) => a - b)
  console.log(`off-topic best scores: p50 ${pct(offScores, 50)}, p90 ${pct(offScores, 90)}, p95 ${pct(offScores, 95)}, max ${offScores.at(-1)}`)
  console.log('| floor | SciFact nDCG@10 | relevant hits dropped (SciFact top 10) | shop expected sections dropped | off-topic questions given no fragment |')
  console.log('|---|---|---|---|---|')
  for (const floor of FLOORS) {
    const kept = (hits: Hit[]) => hits.filter(h => h.score >= floor)
    const rows = onTopicBeir.map(r => measures([...new Set(kept(r.hits).map(h => h.doc))], r.relevant))
    const { ndcg10 } = mean(rows)
    const dropped = relevantScores.filter(s => s < floor).length
    const shopDropped = onTopicShop.filter(r => r.hits.some(h => h.doc === r.expect) && !kept(r.hits).some(h => h.doc === r.expect)).length
    const shopFound = onTopicShop.filter(r => r.hits.some(h => h.doc === r.expect)).length
    const refused = offTopic.filter(o => o.top < floor).length
    console.log(`| ${floor} | ${ndcg10} | ${dropped}/${relevantScores.length} | ${shopDropped}/${shopFound} | ${refused}/${offTopic.length} (${round((100 * refused) / offTopic.length, 1)}%) |`)
  }
  const byLabel = new Map<string, number[]>()
  for (const o of offTopic) byLabel.set(o.label, [...(byLabel.get(o.label) ?? []), o.top])
  for (const [label, tops] of byLabel) console.log(`${label}: best scores ${tops.sort((a, b) => a - b).map(t => t.toFixed(3)).join(' ')}`)
}
