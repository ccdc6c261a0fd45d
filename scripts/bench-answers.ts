// `npm run bench:answers`: the question-answering evaluation of issue 13, end to end through the app's code.
// A fresh embedded database (PGlite in a new DATA_DIR, no manual ANALYZE); the corpus of bench/answers/corpus.json
// upserted through the upsert route and synched by the worker (one section = one document = one chunk); agents
// queried through their query route (JSON), as a caller would. The model is the fake OpenAI-compatible server
// (e2e/support/fake-openai-server.mjs) scripted to answer from the fragments it is given (`answerFromContext`) and
// to rewrite a follow-up as "<follow-up> <previous question>"; its embeddings are a hashed bag of words (no meaning).
// The reranker is tests/helpers/fake-reranker.ts (share of the question's words in the fragment), answering at once.
// Reports, per configuration: hit rate of the expected section at rank 1 and in the top K (direct questions),
// follow-up hit rate in the top K, unanswerable questions answered with "no sources", answerable ones wrongly so,
// and the median time of a query; then the latency that rewriting and reranking add.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const K = 3
const FLOOR = Number(process.env.BENCH_MIN_SCORE ?? 0.3)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3)
const PAIRED_REPEATS = 5
const root = path.resolve(import.meta.dirname, '..')

interface Corpus {
  documents: { name: string; metadata: Record<string, unknown>; sections: { id: string; text: string }[] }[]
}
interface Questions {
  direct: { q: string; expect: string }[]
  followup: { lead: string; q: string; expect: string }[]
  unanswerable: { q: string }[]
}
interface Config {
  label: string
  rewrite: boolean
  rerank: boolean
  floor: number | null
}
interface Outcome {
  kind: 'direct' | 'followup' | 'unanswerable'
  expect?: string
  sections: string[]
  noSources: boolean
  ms: number
}

const CONFIGS: Config[] = [
  { label: 'as typed (no rewrite, no reranker, no floor)', rewrite: false, rerank: false, floor: null },
  { label: 'rewrite', rewrite: true, rerank: false, floor: null },
  { label: 'rewrite + reranker', rewrite: true, rerank: true, floor: null },
  { label: `rewrite + floor ${FLOOR}`, rewrite: true, rerank: false, floor: FLOOR },
  { label: `rewrite + reranker + floor ${FLOOR}`, rewrite: true, rerank: true, floor: FLOOR },
]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN
}
const share = (outcomes: Outcome[], test: (o: Outcome) => boolean) => {
  const hits = outcomes.filter(test).length
  return `${hits}/${outcomes.length} (${Math.round((100 * hits) / Math.max(1, outcomes.length))}%)`
}

type Database = import('@/lib/db/client').Database
type Asker = (agentId: string, body: Record<string, unknown>) => Promise<{ json: any; ms: number; sections: string[]; noSources: boolean }>

/** An organization with an API key, and the corpus upserted through the upsert route and synched by the worker. */
async function seed(db: Database, corpus: Corpus) {
  const { createApiKey } = await import('@/lib/auth/api-keys')
  const { drainQueue } = await import('@/lib/ingest/worker')
  const upsertRoute = await import('@/app/api/datastores/upsert/[datastoreId]/route')
  const org = await db.prisma.organization.create({ data: { name: 'Bench answers' } })
  const ctx = { organizationId: org.id, actor: { type: 'api_key' as const, apiKeyId: '' } }
  const { secret } = await createApiKey(ctx, 'bench')
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
  const store = await db.prisma.datastore.create({ data: { organizationId: org.id, name: 'Shop docs' } })
  const documents = corpus.documents.flatMap(d => d.sections.map(s => ({ name: s.id, text: s.text, metadata: { ...d.metadata, document: d.name } })))
  const up = await upsertRoute.POST(
    new Request(`http://localhost/api/datastores/upsert/${store.id}`, { method: 'POST', headers, body: JSON.stringify({ documents }) }),
    { params: Promise.resolve({ datastoreId: store.id }) },
  )
  if (up.status !== 200) throw new Error(`upsert failed: ${up.status} ${await up.text()}`)
  await drainQueue()
  return { ctx, headers, organizationId: org.id, datastoreId: store.id }
}

/** A question through the agent's query route (JSON), with its sources and whether the answer had none. */
async function asker(db: Database, headers: Record<string, string>): Promise<Asker> {
  const queryRoute = await import('@/app/api/agents/[id]/query/route')
  return async function ask(agentId, body) {
    const started = performance.now()
    const res = await queryRoute.POST(
      new Request(`http://localhost/api/agents/${agentId}/query`, { method: 'POST', headers, body: JSON.stringify(body) }),
      { params: Promise.resolve({ id: agentId }) },
    )
    const json = await res.json()
    const ms = performance.now() - started
    if (res.status !== 200) throw new Error(`query failed: ${res.status} ${JSON.stringify(json)}`)
    const message = await db.prisma.message.findUniqueOrThrow({ where: { id: json.messageId }, select: { noSources: true } })
    return { json, ms, sections: (json.sources as { datasource_name: string }[]).map(s => s.datasource_name), noSources: message.noSources }
  }
}

/** Every question of the set asked of a new agent made with the configuration. */
async function runConfig(config: Config, questions: Questions, ask: Asker, newAgent: (config: Config) => Promise<string>, rerankUrl: string): Promise<Outcome[]> {
  process.env.RERANK_BASE_URL = config.rerank ? rerankUrl : ''
  const agentId = await newAgent(config)
  const outcomes: Outcome[] = []
  for (const d of questions.direct) outcomes.push({ kind: 'direct', expect: d.expect, ...(await ask(agentId, { query: d.q })) })
  for (const f of questions.followup) {
    const lead = await ask(agentId, { query: f.lead })
    outcomes.push({ kind: 'followup', expect: f.expect, ...(await ask(agentId, { query: f.q, conversationId: lead.json.conversationId })) })
  }
  for (const u of questions.unanswerable) outcomes.push({ kind: 'unanswerable', ...(await ask(agentId, { query: u.q })) })
  if (process.env.BENCH_VERBOSE) {
    const misses = outcomes.filter(o => (o.kind === 'unanswerable' ? !o.noSources : !o.sections.includes(o.expect!)))
    console.log(config.label, JSON.stringify(misses.map(o => ({ kind: o.kind, expect: o.expect, got: o.sections }))))
  }
  return outcomes
}

async function main() {
  const corpus: Corpus = JSON.parse(fs.readFileSync(path.join(root, 'bench/answers/corpus.json'), 'utf8'))
  const questions: Questions = JSON.parse(fs.readFileSync(path.join(root, 'bench/answers/questions.json'), 'utf8'))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-answers-'))
  Object.assign(process.env, { DATA_DIR: dir, LOG_LEVEL: 'error', WORKER: 'off', LIMIT_AGENT_QUERIES: '1000000', AGENT_TOP_K: String(K) })

  const { startFakeOpenAI } = await import('../e2e/support/fake-openai-server.mjs')
  const { startFakeReranker } = await import('../tests/helpers/fake-reranker')
  const fake = await startFakeOpenAI()
  const reranker = await startFakeReranker()
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseURL, EMBEDDINGS_DIMENSIONS: '64' })
  fake.setBehaviour({ answerFromContext: true })

  const { openPglite, useDatabase } = await import('@/lib/db/client')
  const database = openPglite(dir)
  useDatabase(database)
  const db = await database
  try {
    const { createAgent } = await import('@/lib/agents/agents')
    const { ctx, headers, organizationId, datastoreId } = await seed(db, corpus)
    const ask = await asker(db, headers)
    const newAgent = async (config: Config) =>
      (await createAgent(ctx, { name: config.label, datastoreIds: [datastoreId], rewriteQuestions: config.rewrite, minScore: config.floor })).id
    const runs = new Map<Config, Outcome[][]>(CONFIGS.map(c => [c, []]))
    for (let r = 0; r < REPEATS; r++) for (const config of CONFIGS) runs.get(config)!.push(await runConfig(config, questions, ask, newAgent, reranker.baseURL))
    report(runs, corpus.documents.reduce((n, d) => n + d.sections.length, 0), questions)
    await reportAddedLatency(questions, ask, async () => (await createAgent(ctx, { name: 'paired', datastoreIds: [datastoreId] })).id, reranker.baseURL)
    process.env.RERANK_BASE_URL = reranker.baseURL
    await reportSteps(organizationId, datastoreId, questions)
  } finally {
    await reranker.close()
    await fake.close()
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function report(runs: Map<Config, Outcome[][]>, sections: number, questions: Questions) {
  const counts = `${questions.direct.length} direct, ${questions.followup.length} follow-ups, ${questions.unanswerable.length} unanswerable`
  console.log(`\nAnswers evaluation: ${sections} sections (one chunk each), ${counts}; top K = ${K}; ${REPEATS} runs per configuration`)
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg()[0].toFixed(1)} (shared)\n`)
  console.log('| configuration | direct hit@1 | direct hit@K | follow-up hit@K | unanswerable → no sources | answerable → no sources | median ms / query |')
  console.log('|---|---|---|---|---|---|---|')
  const timing = new Map<Config, number>()
  for (const [config, all] of runs) {
    const first = all[0]
    const by = (kind: Outcome['kind']) => first.filter(o => o.kind === kind)
    const answerable = first.filter(o => o.kind !== 'unanswerable')
    const times = all.flat()
    timing.set(config, median(times.map(o => o.ms)))
    console.log(
      `| ${config.label} | ${share(by('direct'), o => o.sections[0] === o.expect)} | ${share(by('direct'), o => o.sections.includes(o.expect!))} | ` +
        `${share(by('followup'), o => o.sections.includes(o.expect!))} | ${share(by('unanswerable'), o => o.noSources)} | ` +
        `${share(answerable, o => o.noSources)} | ${timing.get(config)!.toFixed(1)} |`,
    )
  }
}

type Ask = (agentId: string, body: Record<string, unknown>) => Promise<{ json: { conversationId: string }; ms: number }>

/**
 * The latency each switch adds to a whole agent query, paired: the same question asked with and without it, one
 * right after the other (which goes first alternates), so that the machine's load weighs on both sides alike.
 */
async function reportAddedLatency(questions: Questions, ask: Ask, newAgent: () => Promise<string>, rerankUrl: string) {
  process.env.RERANK_BASE_URL = ''
  const agentId = await newAgent()
  const rewriting: number[] = []
  const reranking: number[] = []
  for (let r = 0; r < REPEATS; r++) {
    for (const f of questions.followup) {
      const followUp = async (rewriteQuestion: boolean) => {
        const lead = await ask(agentId, { query: f.lead })
        return (await ask(agentId, { query: f.q, conversationId: lead.json.conversationId, rewriteQuestion })).ms
      }
      const [on, off] = r % 2 ? [await followUp(true), await followUp(false)] : [await followUp(false), await followUp(true)].reverse()
      rewriting.push(on - off)
    }
    for (const d of questions.direct) {
      const timedWith = async (url: string) => {
        process.env.RERANK_BASE_URL = url
        return (await ask(agentId, { query: d.q, rewriteQuestion: false })).ms
      }
      const [on, off] = r % 2 ? [await timedWith(rerankUrl), await timedWith('')] : [await timedWith(''), await timedWith(rerankUrl)].reverse()
      reranking.push(on - off)
    }
  }
  process.env.RERANK_BASE_URL = ''
  console.log(`\nlatency added to an agent query (median of ${rewriting.length} and ${reranking.length} paired differences):`)
  console.log(`  by rewriting a follow-up: ${median(rewriting).toFixed(1)} ms`)
  console.log(`  by reranking: ${median(reranking).toFixed(1)} ms`)
}

/**
 * The two steps alone, paired and interleaved so that the machine's load weighs on both sides alike: the rewrite
 * call (lib/agents/standalone-question.ts) and the search with and without the reranker (lib/search/hybrid-search.ts).
 */
async function reportSteps(organizationId: string, datastoreId: string, questions: Questions) {
  const { standaloneQuestion } = await import('@/lib/agents/standalone-question')
  const { chatModel } = await import('@/lib/agents/model-catalogue')
  const { hybridSearch } = await import('@/lib/search/hybrid-search')
  const { rerankerSettings } = await import('@/lib/search/rerank')
  if (!rerankerSettings()) throw new Error('the reranker is not configured for the paired measurement')
  const model = chatModel('model_3_5_turbo').model
  const rewrite: number[] = []
  const added: number[] = []
  const timed = async (step: () => Promise<unknown>) => {
    const started = performance.now()
    await step()
    return performance.now() - started
  }
  for (let r = 0; r < PAIRED_REPEATS; r++) {
    for (const f of questions.followup) {
      const history = [{ role: 'user' as const, text: f.lead }, { role: 'assistant' as const, text: 'According to the documents: …' }]
      rewrite.push(await timed(() => standaloneQuestion({ model, question: f.q, history })))
      const search = (rerank: boolean) => hybridSearch({ organizationId, datastoreIds: [datastoreId], query: f.q, topK: K, rerank })
      const plain = await timed(() => search(false))
      added.push((await timed(() => search(true))) - plain)
    }
  }
  console.log(`\nthe steps alone (${rewrite.length} paired samples each):`)
  console.log(`  rewrite call (fake model over loopback, answers at once): median ${median(rewrite).toFixed(1)} ms`)
  console.log(`  search with the reranker − without (fake reranker, answers at once; ${K} of up to 40 candidates): median ${median(added).toFixed(1)} ms`)
}

main().then(
  () => process.exit(0),
  error => {
    console.error(error)
    process.exit(1)
  },
)
