// `npm run bench:pglite-ceiling -- --beir DIR [--dims 1536|768|0] [--steps 10000,25000,…] [--queries N]
//  [--explain-at 5000,100000]`: how the embedded database grows with its chunk count, to find its ceiling, and the
// same on PostgreSQL with BENCH_DATABASE_URL=postgres://… (a fresh schema, dropped afterwards).
//
// One datastore on a fresh database as the app leaves it (no ANALYZE, the vector index of the size made before any
// chunk, as the worker does at start). Chunks are written in steps, as the worker writes them: multi-row INSERTs of
// 500 rows, one transaction each, embeddings as pgvector's binary form, through every trigger (tsvector, BM25
// statistics) and index (GIN, binary HNSW). The text is real: the BEIR corpus's documents first (title + text), then
// documents mixed from its sentences (seeded), with the corpus's own length distribution, so that term statistics
// stay those of real text at every size. Embeddings are the bench embeddings server's function, computed in-process
// before each batch is timed. `--dims 0`: no embeddings (full-text mode only).
//
// After each step: the write's CPU per chunk (this process; plus the PostgreSQL server's processes when it runs on
// this machine), the process's RSS, PGlite's WebAssembly heap (2 GiB at most), the database's size on disk; then,
// after one period of the embedded database's own maintenance (as on a user's server between a sync and the
// questions), query latency over HTTP (the datastore query route, topK 10) in full-text mode (no embeddings provider)
// and hybrid mode, and the vector ranking's own cost (the question embedded over HTTP, then the ranking), the three
// interleaved question by question; hybrid's overhead is the median over questions of hybrid − full text − vector. `--explain-at`: EXPLAIN (ANALYZE, BUFFERS) of every statement of the
// BM25 ranking for three of the questions at those sizes. docs/benchmarks.md records the results.
import os from 'node:os'
import path from 'node:path'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import { CHECK_EVERY_MS } from '@/lib/db/auto-analyze'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { ensureVectorIndex } from '@/lib/db/vector-index'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { fulltextRanking } from '@/lib/search/fulltext'
import { poolSize, vectorSearch } from '@/lib/search/hybrid-search'
import { scopeOf } from '@/lib/search/scope'
import { machine, openBenchEnvironment, percentile, round, serveRoutes, type BenchEnvironment } from './datastore-support'
import { cpuMs, databaseBytes, jsonLines, serverCpuReader, textSource, writeChunks } from './pglite-ceiling-data'

const TOP_K = 10
// one period of the embedded database's maintenance (lib/db/auto-analyze.ts), and a margin
const MAINTENANCE_WAIT_MS = CHECK_EVERY_MS + 2_000

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const numbers = (s: string) => s.split(',').map(Number).filter(n => n > 0).sort((a, b) => a - b)

/** Runs fulltextRanking with every ranking statement on "Chunk" explained (ANALYZE, BUFFERS), same transaction. */
async function explainRanking(sql: SqlDriver, scope: ReturnType<typeof scopeOf>, question: string): Promise<string[]> {
  const plans: string[] = []
  const explaining: SqlDriver = {
    ...sql,
    transaction: fn => sql.transaction(tx => fn({
      ...tx,
      query: async (text, params) => {
        if (/"Chunk"/.test(text)) plans.push((await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)).map(r => r['QUERY PLAN']).join('\n'))
        return tx.query(text, params)
      },
    })),
  }
  await fulltextRanking(explaining, scope, question, poolSize(TOP_K))
  // the score expression (a term per lexeme) makes lines of kilobytes: cut them
  return plans.map(p => p.split('\n').map(line => (line.length > 240 ? `${line.slice(0, 200)} …` : line)).join('\n'))
}

/** The median of the per-question differences a − b − c (paired: each question's own figures). */
function pairedMedian(a: number[], ...others: number[][]): number {
  return percentile(a.map((x, i) => others.reduce((rest, series) => rest - series[i], x)), 50)
}

/**
 * Each question over HTTP in full-text mode (no embeddings provider) and hybrid mode, and the vector ranking's own
 * cost as hybrid search pays it (the question embedded by the provider over HTTP, then the vector ranking of
 * poolSize(topK) chunks), interleaved question by question in a rotating order so that no mode runs on pages another
 * warmed for it more than the others; then the BM25 ranking alone (pool of 40, as with a reranker).
 */
async function measureQueries(env: BenchEnvironment, storeId: string, dims: number, questions: string[], serverCpu: () => number) {
  const server = await serveRoutes([[/^\/api\/datastores\/([^/]+)\/query$/, ['id'], datastoreQuery.POST as never]])
  const headers = { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' }
  const key = process.env.OPENAI_API_KEY
  const scope = { organizationId: env.organizationId, datastoreIds: [storeId] }
  const ask = async (query: string) => {
    const res = await fetch(`${server.url}/api/datastores/${storeId}/query`, { method: 'POST', headers, body: JSON.stringify({ query, topK: TOP_K }) })
    const body = await res.text()
    if (res.status !== 200) throw new Error(`query failed: ${res.status} ${body.slice(0, 200)}`)
  }
  type Mode = 'fulltext' | 'hybrid' | 'vector'
  const run: Record<Mode, (q: string) => Promise<void>> = {
    fulltext: async q => { delete process.env.OPENAI_API_KEY; await ask(q) },
    hybrid: async q => { process.env.OPENAI_API_KEY = key; await ask(q) },
    vector: async q => {
      process.env.OPENAI_API_KEY = key
      const [embedding] = await embeddingsProvider()!.embed([q])
      await vectorSearch(scope, embedding, poolSize(TOP_K))
    },
  }
  const modes: Mode[] = dims ? ['fulltext', 'hybrid', 'vector'] : ['fulltext']
  const ms: Record<Mode, number[]> = { fulltext: [], hybrid: [], vector: [] }
  const cpu: Record<Mode, number> = { fulltext: 0, hybrid: 0, vector: 0 }
  for (const q of questions.slice(0, 10)) for (const mode of modes) await run[mode](q)
  for (const [n, q] of questions.entries()) {
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(n + k) % modes.length]
      const [c0, s0, t0] = [cpuMs(), serverCpu(), performance.now()]
      await run[mode](q)
      ms[mode].push(performance.now() - t0)
      cpu[mode] += cpuMs() - c0 + serverCpu() - s0
    }
  }
  process.env.OPENAI_API_KEY = key
  await server.close()
  const figures = (mode: Mode) => ({ p50: round(percentile(ms[mode], 50)), p95: round(percentile(ms[mode], 95)), cpu: round(cpu[mode] / questions.length) })
  const rankingCpu: number[] = []
  const rankingMs: number[] = []
  for (const q of questions) {
    const [c0, s0, t0] = [cpuMs(), serverCpu(), performance.now()]
    await fulltextRanking(env.db.sql, scopeOf(scope, { datastoreIndex: false }), q, poolSize(TOP_K))
    rankingMs.push(performance.now() - t0)
    rankingCpu.push(cpuMs() - c0 + serverCpu() - s0)
  }
  return {
    fulltext: figures('fulltext'),
    hybrid: dims ? { ...figures('hybrid'), overhead_p50: round(pairedMedian(ms.hybrid, ms.fulltext, ms.vector)) } : undefined,
    ranking: { p50: round(percentile(rankingMs, 50)), p95: round(percentile(rankingMs, 95)), cpu_p50: round(percentile(rankingCpu, 50)), cpu_p95: round(percentile(rankingCpu, 95)) },
    vector: dims ? figures('vector') : undefined,
  }
}

export async function run(argv: string[] = []): Promise<void> {
  const dir = option(argv, 'beir') ?? process.env.BENCH_BEIR
  if (!dir) throw new Error('usage: npm run bench:pglite-ceiling -- --beir DIR [--dims 1536] [--steps 10000,50000,100000] [--queries 100] [--explain-at 5000,100000]')
  const dims = Number(option(argv, 'dims') ?? process.env.BENCH_DIMENSIONS ?? 1536)
  const steps = numbers(option(argv, 'steps') ?? '10000,25000,50000,100000,150000,200000')
  const explainAt = new Set(numbers(option(argv, 'explain-at') ?? ''))
  const questions: string[] = jsonLines(path.join(dir, 'queries.jsonl')).map(q => String(q.text)).slice(0, Number(option(argv, 'queries') ?? 100))
  const env = await openBenchEnvironment()
  if (dims) process.env.EMBEDDINGS_DIMENSIONS = String(dims)
  else delete process.env.OPENAI_API_KEY
  const serverCpu = await serverCpuReader(env.db.sql)
  const next = textSource(dir)
  const rows: Record<string, unknown>[] = []
  console.log(`${env.db.kind}, ${dims || 'no'} embedding dimensions, steps ${steps.join(', ')}; load average ${os.loadavg().map(l => l.toFixed(2)).join(' ')}`)
  try {
    const store = await env.db.prisma.datastore.create({ data: { organizationId: env.organizationId, name: 'ceiling' } })
    if (dims) await ensureVectorIndex(env.db.sql, dims)
    let loaded = 0
    for (const size of steps) {
      const load = os.loadavg()[0]
      const written = await writeChunks(env, store.id, dims, next, loaded, size, serverCpu)
      const chunksWritten = size - loaded
      loaded = size
      // as on a user's server between a sync and the questions: the embedded database's own maintenance (every
      // 15 s: ANALYZE when due, the full-text index's pending entries merged; autovacuum on PostgreSQL) runs once
      await new Promise(resolve => setTimeout(resolve, MAINTENANCE_WAIT_MS))
      const queries = await measureQueries(env, store.id, dims, questions, serverCpu)
      const heap = env.db.heap?.()
      const row = {
        database: env.db.kind, dims, chunks: size,
        write_cpu_ms_per_chunk: round(written.cpu / chunksWritten, 2), write_chunks_per_s: round(chunksWritten / (written.wall / 1000)),
        rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20), heap_mb: heap ? Math.round(heap.bytes / 2 ** 20) : null,
        disk_mb: Math.round((await databaseBytes(env)) / 2 ** 20),
        ...queries, load_1min: round(load),
      }
      rows.push(row)
      console.log(JSON.stringify(row))
      if (explainAt.has(size)) {
        const scope = scopeOf({ organizationId: env.organizationId, datastoreIds: [store.id] }, { datastoreIndex: false })
        for (const q of [questions[0], questions[1], questions[2]]) {
          console.log(`\n--- EXPLAIN (ANALYZE, BUFFERS) at ${size} chunks (${env.db.kind}): "${q}"`)
          for (const plan of await explainRanking(env.db.sql, scope, q)) console.log(plan, '\n')
        }
      }
    }
    console.log(`\nmachine: ${machine()}; load average at end ${os.loadavg().map(l => l.toFixed(2)).join(' ')}`)
    console.log('| database | dims | chunks | write CPU ms/chunk | write chunks/s | full-text HTTP p50 / p95 | hybrid HTTP p50 / p95 | vector ranking with its embedding p50 | hybrid − full text − vector (median, paired) | BM25 ranking (40) CPU p50 / p95 | RSS | WASM heap | on disk | load |')
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for (const r of rows as any[]) {
      console.log(`| ${r.database} | ${r.dims} | ${r.chunks.toLocaleString('en')} | ${r.write_cpu_ms_per_chunk} | ${r.write_chunks_per_s} | ${r.fulltext.p50} / ${r.fulltext.p95} ms | ${r.hybrid ? `${r.hybrid.p50} / ${r.hybrid.p95} ms` : '–'} | ${r.vector ? `${r.vector.p50} ms` : '–'} | ${r.hybrid ? `${r.hybrid.overhead_p50} ms` : '–'} | ${r.ranking.cpu_p50} / ${r.ranking.cpu_p95} ms | ${r.rss_mb} MB | ${r.heap_mb ?? '–'} MB | ${r.disk_mb} MB | ${r.load_1min} |`)
    }
  } finally {
    await env.close()
  }
}
