// `npm run bench:agent`: the service's own cost in an agent query, against the fake OpenAI-compatible server, with a
// datastore of 10,000 chunks (embedded PGlite on disk, as the default install runs).
//   streaming:     time from the request to the first `answer` event, minus the model's time to its first token
//   non-streaming: time of the whole request, minus the model's time to answer
// Both include authentication, the usage reservation, conversation writes, history, hybrid retrieval (query
// embedding + full-text + vector), prompt assembly and the ai SDK's HTTP round trip over loopback. Route handlers are
// called in-process with a Request, as Next calls them (Next's own HTTP layer is not included). Three scenarios: an
// agent without datastores (the pipeline's own cost), and the agent over the 10,000 chunks with two kinds of question.
import { CHECK_EVERY_MS } from '@/lib/db/auto-analyze'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createParser } from 'eventsource-parser'
import { decodeAnswerEvent, type AnswerEvent } from '@/lib/domain/answer-events'

const CHUNKS = 10_000
const DATASOURCES = 100
const WORDS_PER_CHUNK = 300
const VOCABULARY = 5_000
const WARMUP = 20
const RUNS = 100
const TURNS_PER_CONVERSATION = 5
// the fake model's own delays: a realistic first token, and fast pieces so a run stays short
const FIRST_TOKEN_DELAY_MS = 40
const REPLY = 'The kettle warranty lasts two years from the date of purchase. Keep the receipt, and contact support by email.'

// A deterministic PRNG (mulberry32), so every run searches the same corpus
function random(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function vocabulary(rand: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'den', 'mar', 'tel', 'qua', 'bri', 'sto', 'fen', 'gal']
  const words = new Set<string>()
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(rand() * 3)
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rand() * syllables.length)]).join(''))
  }
  return [...words]
}

// Zipf-like: word i is drawn with probability ~ 1/(i+1), as in natural text
function zipfSampler(words: string[], rand: () => number) {
  const weights = words.map((_, i) => 1 / (i + 1))
  const cumulative: number[] = []
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0)
  const total = cumulative[cumulative.length - 1]
  return () => {
    const x = rand() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] < x) lo = mid + 1
      else hi = mid
    }
    return words[lo]
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

const ms = (v: number) => `${v.toFixed(1)} ms`

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
    const { createApiKey } = await import('@/lib/auth/api-keys')
    const { createAgent } = await import('@/lib/agents/agents')
    const { toVectorLiteral } = await import('@/lib/embeddings/provider')
    const { ensureVectorIndex } = await import('@/lib/db/vector-index')
    const { hybridSearch } = await import('@/lib/search/hybrid-search')
    const query = await import('@/app/api/agents/[id]/query/route')

    const org = await db.prisma.organization.create({ data: { name: 'Bench' } })
    const ctx = { organizationId: org.id, actor: { type: 'api_key' as const, apiKeyId: '' } }
    const { secret } = await createApiKey(ctx, 'bench')
    const store = await db.prisma.datastore.create({ data: { organizationId: org.id, name: 'Bench docs' } })

    // the corpus: 10,000 chunks of 300 Zipf-distributed words, with their (fake) embeddings, written in bulk
    const seedStarted = performance.now()
    const rand = random(42)
    const words = vocabulary(rand)
    const word = zipfSampler(words, rand)
    const datasourceIds: string[] = []
    for (let i = 0; i < DATASOURCES; i++) {
      const ds = await db.prisma.datasource.create({
        data: { organizationId: org.id, datastoreId: store.id, type: 'text', name: `document-${i}.md`, status: 'synched' },
      })
      datasourceIds.push(ds.id)
    }
    const BATCH = 250
    for (let start = 0; start < CHUNKS; start += BATCH) {
      const values: string[] = []
      const params: unknown[] = []
      for (let i = start; i < Math.min(CHUNKS, start + BATCH); i++) {
        const text = Array.from({ length: WORDS_PER_CHUNK }, word).join(' ')
        const p = params.length
        values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::vector)`)
        params.push(`bench_chunk_${i}`, org.id, store.id, datasourceIds[i % DATASOURCES], Math.floor(i / DATASOURCES), text, WORDS_PER_CHUNK, toVectorLiteral(embedText(text, 64)))
      }
      await db.sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ${values.join(', ')}`,
        params,
      )
    }
    await ensureVectorIndex(db.sql, 64)
    const seedMs = performance.now() - seedStarted
    // no ANALYZE of our own: one period of the app's maintenance (lib/db/auto-analyze.ts; autovacuum on PostgreSQL)
    await new Promise(resolve => setTimeout(resolve, CHECK_EVERY_MS + 2_000))

    // BENCH_REWRITE=0: follow-ups searched as typed (issue 13's rewriting into a standalone question is on by default)
    const withDocs = await createAgent(ctx, { name: 'Bench agent', datastoreIds: [store.id], ...(process.env.BENCH_REWRITE === '0' ? { rewriteQuestions: false } : {}) })
    // the same pipeline with nothing to search: the service's own cost without retrieval
    const withoutDocs = await createAgent(ctx, { name: 'Bench agent without datastores' })
    fake.setBehaviour({ reply: REPLY, firstTokenDelayMs: FIRST_TOKEN_DELAY_MS, delayMs: 0 })
    // two kinds of question: words drawn uniformly from the vocabulary (mostly rarer content words, as real questions
    // are once stop words are gone), and words drawn with their corpus frequency (some match nearly every chunk)
    const uniform = () => `${Array.from({ length: 6 }, () => words[Math.floor(rand() * words.length)]).join(' ')}?`
    const frequent = () => `${Array.from({ length: 6 }, word).join(' ')}?`
    const scenarios = [
      { label: 'no datastore (no retrieval)', agentId: withoutDocs.id, question: uniform, searched: false },
      { label: 'content-word questions', agentId: withDocs.id, question: uniform, searched: true },
      { label: 'frequent-word questions', agentId: withDocs.id, question: frequent, searched: true },
    ]
    type Scenario = (typeof scenarios)[number]
    type Sample = { total: number; model: number; modelCalls: number }
    let conversationId: string | undefined
    let turns = 0

    async function ask(scenario: Scenario, streaming: boolean): Promise<Sample> {
      if (turns++ % TURNS_PER_CONVERSATION === 0) conversationId = undefined
      const before = fake.requests.length
      const started = performance.now()
      const req = new Request(`http://localhost/api/agents/${scenario.agentId}/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: scenario.question(), streaming, conversationId }),
      })
      const res = await query.POST(req, { params: Promise.resolve({ id: scenario.agentId }) })
      if (res.status !== 200) throw new Error(`query failed: ${res.status} ${await res.text()}`)
      let total: number
      if (streaming) {
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
        total = first - started
        conversationId = answer.conversationId
      } else {
        const body = await res.json()
        total = performance.now() - started
        conversationId = body.conversationId
      }
      // the model's own time: the answer's (to its first token when streamed), and any other call of this question
      // to the model, such as a follow-up rewritten into a standalone question (lib/agents/standalone-question.ts)
      const calls = fake.requests.slice(before).filter((r: any) => r.path === '/v1/chat/completions') as any[]
      const answer = calls.at(-1)
      const model = (streaming ? answer.firstTokenAt - answer.receivedAt : answer.finishedAt - answer.receivedAt) +
        calls.slice(0, -1).reduce((sum, r) => sum + (r.finishedAt - r.receivedAt), 0)
      return { total, model, modelCalls: calls.length }
    }

    for (const scenario of scenarios) {
      for (let i = 0; i < WARMUP; i++) {
        await ask(scenario, true)
        await ask(scenario, false)
      }
    }
    fake.reset()
    fake.setBehaviour({ reply: REPLY, firstTokenDelayMs: FIRST_TOKEN_DELAY_MS, delayMs: 0 })

    const results = []
    for (const scenario of scenarios) {
      const streamed: Sample[] = []
      const plain: Sample[] = []
      const retrieval: number[] = []
      conversationId = undefined
      for (let i = 0; i < RUNS; i++) {
        streamed.push(await ask(scenario, true))
        plain.push(await ask(scenario, false))
      }
      if (scenario.searched) {
        for (let i = 0; i < RUNS; i++) {
          const started = performance.now()
          await hybridSearch({ organizationId: org.id, datastoreIds: [store.id], query: scenario.question(), topK: 5 })
          retrieval.push(performance.now() - started)
        }
      }
      results.push({ scenario, streamed, plain, retrieval })
    }

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
  } finally {
    await fake.close()
    useDatabase(undefined)
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
