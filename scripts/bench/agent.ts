// `npm run bench:agent`: the service's own cost in an agent query, against the fake OpenAI-compatible server, with a
// datastore of 10,000 chunks (embedded PGlite on disk, as the default install runs).
//   streaming:     time from the request to the first `answer` event, minus the model's time to its first token
//   non-streaming: time of the whole request, minus the model's time to answer
// Both include authentication, the usage reservation, conversation writes, history, hybrid retrieval (query
// embedding + full-text + vector), prompt assembly and the ai SDK's HTTP round trip over loopback. Route handlers are
// called in-process with a Request, as Next calls them (Next's own HTTP layer is not included). Three scenarios: an
// agent without datastores (the pipeline's own cost), and the agent over the 10,000 chunks with two kinds of question.
// BENCH_METRICS=paired adds what the metrics cost a query, in the same run (scripts/bench/agent-metrics.ts).
import { CHECK_EVERY_MS } from '@/lib/db/auto-analyze'
import type { Database } from '@/lib/db/client'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createParser } from 'eventsource-parser'
import { decodeAnswerEvent, type AnswerEvent } from '@/lib/domain/answer-events'
import { CHUNKS, DATASOURCES, seedCorpus, WORDS_PER_CHUNK, type CorpusWords } from './agent-corpus'

const WARMUP = 20
const RUNS = 100
const TURNS_PER_CONVERSATION = 5
// the fake model's own delays: a realistic first token, and fast pieces so a run stays short
const FIRST_TOKEN_DELAY_MS = 40
const REPLY = 'The kettle warranty lasts two years from the date of purchase. Keep the receipt, and contact support by email.'

type FakeModule = typeof import('../../e2e/support/fake-openai-server.mjs')
type FakeModel = Awaited<ReturnType<FakeModule['startFakeOpenAI']>>
type QueryRoute = typeof import('@/app/api/agents/[id]/query/route')
type Scenario = { label: string; agentId: string; question: () => string; searched: boolean }
type Sample = { total: number; model: number; modelCalls: number }
type Result = { scenario: Scenario; streamed: Sample[]; plain: Sample[]; retrieval: number[] }

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const ms = (v: number) => `${v.toFixed(1)} ms`

/** The time to the first `answer` event of a streamed answer, and the conversation it went to. */
async function firstAnswer(res: Response): Promise<{ first: number; conversationId: string }> {
  const events: AnswerEvent[] = []
  let first: number | undefined
  const parser = createParser({
    onEvent: sse => {
      const event = decodeAnswerEvent(sse)
      if (event?.type === 'answer') first ??= performance.now()
      if (event) events.push(event)
    },
  })
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) parser.feed(read.value)
  const answer = events.find(e => e.type === 'endpoint_response')?.answer
  if (first === undefined || events.at(-1)?.type !== 'done' || !answer) throw new Error(`incomplete stream: ${JSON.stringify(events.slice(-3))}`)
  return { first, conversationId: answer.conversationId }
}

/** Asks a scenario's question through the route, in conversations of TURNS_PER_CONVERSATION turns. */
function asker(fake: FakeModel, query: QueryRoute, secret: string) {
  const state = { conversationId: undefined as string | undefined, turns: 0 }
  async function ask(scenario: Scenario, streaming: boolean): Promise<Sample> {
    if (state.turns++ % TURNS_PER_CONVERSATION === 0) state.conversationId = undefined
    const before = fake.requests.length
    const started = performance.now()
    const req = new Request(`http://localhost/api/agents/${scenario.agentId}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: scenario.question(), streaming, conversationId: state.conversationId }),
    })
    const res = await query.POST(req, { params: Promise.resolve({ id: scenario.agentId }) })
    if (res.status !== 200) throw new Error(`query failed: ${res.status} ${await res.text()}`)
    let total: number
    if (streaming) {
      const { first, conversationId } = await firstAnswer(res)
      total = first - started
      state.conversationId = conversationId
    } else {
      const body = await res.json()
      total = performance.now() - started
      state.conversationId = body.conversationId
    }
    // the model's own time: the answer's (to its first token when streamed), and any other call of this question
    // to the model, such as a follow-up rewritten into a standalone question (lib/agents/standalone-question.ts)
    const calls = fake.requests.slice(before).filter((r: any) => r.path === '/v1/chat/completions') as any[]
    const answer = calls.at(-1)
    const model = (streaming ? answer.firstTokenAt - answer.receivedAt : answer.finishedAt - answer.receivedAt) +
      calls.slice(0, -1).reduce((sum, r) => sum + (r.finishedAt - r.receivedAt), 0)
    return { total, model, modelCalls: calls.length }
  }
  return { ask, newConversation: () => { state.conversationId = undefined } }
}

/** An organization with an API key, the seeded datastore, and the two agents (with it and without datastores). */
async function setUp(db: Database, embedText: FakeModule['embedText']) {
  const { createApiKey } = await import('@/lib/auth/api-keys')
  const { createAgent } = await import('@/lib/agents/agents')
  const org = await db.prisma.organization.create({ data: { name: 'Bench' } })
  const ctx = { organizationId: org.id, actor: { type: 'api_key' as const, apiKeyId: '' } }
  const { secret } = await createApiKey(ctx, 'bench')
  const store = await db.prisma.datastore.create({ data: { organizationId: org.id, name: 'Bench docs' } })
  const seedStarted = performance.now()
  const corpus = await seedCorpus(db, org.id, store.id, embedText)
  const seedMs = performance.now() - seedStarted
  // no ANALYZE of our own: one period of the app's maintenance (lib/db/auto-analyze.ts; autovacuum on PostgreSQL)
  await new Promise(resolve => setTimeout(resolve, CHECK_EVERY_MS + 2_000))
  // BENCH_REWRITE=0: follow-ups searched as typed (issue 13's rewriting into a standalone question is on by default)
  const withDocs = await createAgent(ctx, { name: 'Bench agent', datastoreIds: [store.id], ...(process.env.BENCH_REWRITE === '0' ? { rewriteQuestions: false } : {}) })
  // the same pipeline with nothing to search: the service's own cost without retrieval
  const withoutDocs = await createAgent(ctx, { name: 'Bench agent without datastores' })
  return { organizationId: org.id, datastoreId: store.id, secret, corpus, seedMs, withDocs, withoutDocs }
}

// two kinds of question: words drawn uniformly from the vocabulary (mostly rarer content words, as real questions
// are once stop words are gone), and words drawn with their corpus frequency (some match nearly every chunk)
function scenarios({ rand, words, word }: CorpusWords, withDocs: string, withoutDocs: string): Scenario[] {
  const uniform = () => `${Array.from({ length: 6 }, () => words[Math.floor(rand() * words.length)]).join(' ')}?`
  const frequent = () => `${Array.from({ length: 6 }, word).join(' ')}?`
  return [
    { label: 'no datastore (no retrieval)', agentId: withoutDocs, question: uniform, searched: false },
    { label: 'content-word questions', agentId: withDocs, question: uniform, searched: true },
    { label: 'frequent-word questions', agentId: withDocs, question: frequent, searched: true },
  ]
}

/** Warm-ups, then per scenario RUNS streaming and RUNS non-streaming questions, and retrieval alone. */
async function measure(fake: FakeModel, ask: ReturnType<typeof asker>, all: Scenario[], search: (question: string) => Promise<unknown>): Promise<Result[]> {
  for (const scenario of all) {
    for (let i = 0; i < WARMUP; i++) {
      await ask.ask(scenario, true)
      await ask.ask(scenario, false)
    }
  }
  fake.reset()
  fake.setBehaviour({ reply: REPLY, firstTokenDelayMs: FIRST_TOKEN_DELAY_MS, delayMs: 0 })
  const results: Result[] = []
  for (const scenario of all) {
    const streamed: Sample[] = []
    const plain: Sample[] = []
    const retrieval: number[] = []
    ask.newConversation()
    for (let i = 0; i < RUNS; i++) {
      streamed.push(await ask.ask(scenario, true))
      plain.push(await ask.ask(scenario, false))
    }
    if (scenario.searched) {
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await search(scenario.question())
        retrieval.push(performance.now() - started)
      }
    }
    results.push({ scenario, streamed, plain, retrieval })
  }
  return results
}

function report(results: Result[], loadAtStart: string, seedMs: number): void {
  const overhead = (xs: Sample[]) => xs.map(x => x.total - x.model)
  const cells = (values: number[]) => `${ms(percentile(values, 50))} | ${ms(percentile(values, 95))}`
  const cpu = os.cpus()
  console.log(
    `machine: ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, ` +
      `${os.platform()} ${os.release()}; load average at start ${loadAtStart}, at end ${os.loadavg()[0].toFixed(1)} (other work on the machine inflates the figures)`,
  )
  console.log(`corpus: ${CHUNKS} chunks × ${WORDS_PER_CHUNK} words, ${DATASOURCES} datasources, 64-dim embeddings; seeded in ${(seedMs / 1000).toFixed(1)} s`)
  console.log(
    `runs: per scenario ${RUNS} streaming + ${RUNS} non-streaming queries (after ${WARMUP} warm-ups each), conversations of ` +
      `${TURNS_PER_CONVERSATION} turns; the fake model's first token comes ${FIRST_TOKEN_DELAY_MS} ms after its request\n`,
  )
  console.log('| scenario | streaming overhead p50 | p95 | non-streaming overhead p50 | p95 | hybrid retrieval alone p50 | p95 | model calls a question |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const r of results) {
    const search = r.retrieval.length ? cells(r.retrieval) : '– | –'
    const calls = [...r.streamed, ...r.plain].reduce((sum, x) => sum + x.modelCalls, 0) / (r.streamed.length + r.plain.length)
    console.log(`| ${r.scenario.label} | ${cells(overhead(r.streamed))} | ${cells(overhead(r.plain))} | ${search} | ${calls.toFixed(2)} |`)
  }
  console.log('')
  for (const r of results) {
    const p50 = percentile(overhead(r.streamed), 50)
    console.log(`budget, ${r.scenario.label}: streaming p50 overhead ${ms(p50)} < 30 ms → ${p50 < 30 ? 'met' : 'NOT met'}`)
  }
}

export async function run(): Promise<void> {
  const loadAtStart = os.loadavg()[0].toFixed(1)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agent-'))
  process.env.DATA_DIR = dir
  process.env.LOG_LEVEL = 'error'
  process.env.WORKER = 'off'
  process.env.LIMIT_AGENT_QUERIES = String(1_000_000)

  const { startFakeOpenAI, embedText } = await import('../../e2e/support/fake-openai-server.mjs')
  const fake = await startFakeOpenAI()
  process.env.OPENAI_API_KEY = 'sk-bench'
  process.env.OPENAI_BASE_URL = fake.baseURL
  process.env.EMBEDDINGS_DIMENSIONS = '64'

  const { openPglite, useDatabase } = await import('@/lib/db/client')
  const database = openPglite(dir)
  useDatabase(database)
  const db = await database
  try {
    const { hybridSearch } = await import('@/lib/search/hybrid-search')
    const query = await import('@/app/api/agents/[id]/query/route')
    const bench = await setUp(db, embedText)
    fake.setBehaviour({ reply: REPLY, firstTokenDelayMs: FIRST_TOKEN_DELAY_MS, delayMs: 0 })
    const all = scenarios(bench.corpus, bench.withDocs.id, bench.withoutDocs.id)
    const search = (question: string) => hybridSearch({ organizationId: bench.organizationId, datastoreIds: [bench.datastoreId], query: question, topK: 5 })
    const ask = asker(fake, query, bench.secret)
    const results = await measure(fake, ask, all, search)
    report(results, loadAtStart, bench.seedMs)
    if (process.env.BENCH_METRICS === 'paired') {
      const { pairedMetricsCost } = await import('./agent-metrics')
      console.log(`\n${await pairedMetricsCost(all[1].label, () => ask.ask(all[1], true))}`)
    }
  } finally {
    await fake.close()
    useDatabase(undefined)
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
