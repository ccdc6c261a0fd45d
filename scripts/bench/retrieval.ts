// `npm run bench:retrieval -- --beir DIR [--split NAME] [--queries N]`: retrieval quality and latency of the
// full-text search on a BEIR data set (corpus.jsonl, queries.jsonl, qrels/<split>.tsv; BEIR's data sets are published
// by the BEIR project, e.g. SciFact), on the embedded default as `npm start` leaves it: a fresh DATA_DIR, no
// embeddings provider (full-text mode, what a new user gets), no ANALYZE or any step the app does not take.
// Every document ("title\n\ntext") goes through the upsert route over loopback HTTP and the sync worker (chunking,
// the tsvector and the BM25 statistics written by the database's triggers); every question of the split is asked
// through the datastore query route. Prints nDCG@10, Recall@100 and MRR@10 (chunks mapped to their documents, first
// occurrence kept), query latency p50/p95 (HTTP, topK 10; and the full-text ranking alone), and the same measures
// for a BM25 reference computed in the same run: textbook BM25 (k1 1.2, b 0.75, Lucene's IDF) over whole documents,
// exhaustive, in JavaScript, on PostgreSQL's own `english` lexemes of the same text (so the two differ only by the
// service's ranking path and its chunking).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import * as upsert from '@/app/api/datastores/upsert/[datastoreId]/route'
import { createApiKey } from '@/lib/auth/api-keys'
import { getDatabase, useDatabase } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { drainQueue } from '@/lib/ingest/worker'
import { CHECK_EVERY_MS } from '@/lib/db/auto-analyze'
import { BM25_B, BM25_K1, fulltextRanking, inverseDocumentFrequency } from '@/lib/search/fulltext'
import { scopeOf } from '@/lib/search/scope'
import { machine, percentile, round, serveRoutes } from './datastore-support'

interface BeirData {
  docs: { id: string; text: string }[]
  questions: { id: string; text: string }[]
  qrels: Map<string, Map<string, number>>
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}

const jsonLines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim()).map(l => JSON.parse(l))

export function readBeir(dir: string, split?: string): BeirData {
  const splits = fs.readdirSync(path.join(dir, 'qrels')).filter(f => f.endsWith('.tsv')).map(f => f.slice(0, -4))
  const chosen = split ?? (splits.includes('test') ? 'test' : splits[0])
  const qrels = new Map<string, Map<string, number>>()
  for (const line of fs.readFileSync(path.join(dir, 'qrels', `${chosen}.tsv`), 'utf8').split('\n').slice(1)) {
    const [q, d, s] = line.trim().split('\t')
    if (!q || !d || !(Number(s) > 0)) continue
    if (!qrels.has(q)) qrels.set(q, new Map())
    qrels.get(q)!.set(d, Number(s))
  }
  const docs = jsonLines(path.join(dir, 'corpus.jsonl')).map(d => ({ id: String(d._id), text: [d.title, d.text].filter(Boolean).join('\n\n') }))
  const questions = jsonLines(path.join(dir, 'queries.jsonl')).map(q => ({ id: String(q._id), text: String(q.text) })).filter(q => qrels.has(q.id))
  console.log(`${dir}: ${docs.length} documents, ${questions.length} questions with judgments (split ${chosen})`)
  return { docs, questions, qrels }
}

/** nDCG@10 (graded: 2^rel - 1), Recall@100 and MRR@10 of one ranking of document ids. */
export function measures(ranked: string[], relevant: Map<string, number>) {
  const gain = (g: number) => 2 ** g - 1
  let dcg = 0
  ranked.slice(0, 10).forEach((d, i) => (dcg += gain(relevant.get(d) ?? 0) / Math.log2(i + 2)))
  const ideal = [...relevant.values()].sort((a, b) => b - a).slice(0, 10).reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0)
  const first = ranked.slice(0, 10).findIndex(d => relevant.has(d))
  return {
    ndcg: ideal ? dcg / ideal : 0,
    recall: ranked.slice(0, 100).filter(d => relevant.has(d)).length / relevant.size,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  }
}

export function mean(rows: { ndcg: number; recall: number; mrr: number }[]) {
  const avg = (f: (r: (typeof rows)[number]) => number) => round(rows.reduce((s, r) => s + f(r), 0) / rows.length, 4)
  return { ndcg10: avg(r => r.ndcg), recall100: avg(r => r.recall), mrr10: avg(r => r.mrr) }
}

/** Term frequencies of a text by PostgreSQL's `english` configuration (lexemes and their positions). */
async function lexemes(sql: SqlDriver, text: string): Promise<Map<string, number>> {
  const rows = await sql.query<{ lexeme: string; n: number }>(`SELECT lexeme, cardinality(positions) AS n FROM unnest(to_tsvector('english', $1))`, [text])
  return new Map(rows.map(r => [r.lexeme, Number(r.n)]))
}

/** The reference: exhaustive textbook BM25 over whole documents, in memory. */
async function referenceBm25(sql: SqlDriver, data: BeirData) {
  const docs = await Promise.all(data.docs.map(async d => ({ id: d.id, tf: await lexemes(sql, d.text) })))
  const lengths = docs.map(d => [...d.tf.values()].reduce((a, b) => a + b, 0))
  const average = lengths.reduce((a, b) => a + b, 0) / docs.length
  const postings = new Map<string, [number, number][]>()
  docs.forEach((d, i) => d.tf.forEach((n, lexeme) => (postings.get(lexeme) ?? postings.set(lexeme, []).get(lexeme)!).push([i, n])))
  const rows = []
  const latencies: number[] = []
  for (const q of data.questions) {
    const terms = [...(await lexemes(sql, q.text)).keys()]
    const t = performance.now()
    const scores = new Map<number, number>()
    for (const term of terms) {
      const list = postings.get(term) ?? []
      const idf = inverseDocumentFrequency(list.length, docs.length)
      for (const [i, tf] of list) {
        scores.set(i, (scores.get(i) ?? 0) + (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * lengths[i]) / average)))
      }
    }
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 100).map(([i]) => docs[i].id)
    latencies.push(performance.now() - t)
    rows.push(measures(ranked, data.qrels.get(q.id)!))
  }
  return { ...mean(rows), p50_ms: round(percentile(latencies, 50), 2), p95_ms: round(percentile(latencies, 95), 2) }
}

type Database = Awaited<ReturnType<typeof getDatabase>>
type Ask = (query: string, topK: number) => Promise<{ ms: number; docs: string[] }>

/** Every document through the upsert route, then the worker; returns the datastore's chunk count. */
async function ingest(db: Database, serverUrl: string, headers: Record<string, string>, storeId: string, data: BeirData): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < data.docs.length; i += 500) {
    const documents = data.docs.slice(i, i + 500).map(d => ({ text: d.text, name: d.id, metadata: { beir_id: d.id } }))
    const res = await fetch(`${serverUrl}/api/datastores/upsert/${storeId}`, { method: 'POST', headers, body: JSON.stringify({ documents }) })
    if (res.status !== 200) throw new Error(`upsert failed: ${res.status} ${await res.text()}`)
    await res.arrayBuffer()
  }
  await drainQueue()
  const ingestS = (performance.now() - started) / 1000
  const [{ chunks }] = await db.sql.query<{ chunks: number }>(`SELECT count(*)::int AS chunks FROM "Chunk" WHERE "datastoreId" = $1`, [storeId])
  console.log(`ingested ${data.docs.length} documents as ${chunks} chunks in ${round(ingestS)} s (${round(chunks / ingestS)} chunks/s, upsert and sync)`)
  return chunks
}

/** The ranking alone, in wall-clock time and in CPU time of this process (PGlite runs in it): the second is what a shared machine's load changes least. */
async function rankingTimes(db: Database, scope: ReturnType<typeof scopeOf>, data: BeirData): Promise<{ wall: number[]; cpu: number[] }> {
  const wall: number[] = []
  const cpuMs: number[] = []
  for (const q of data.questions) {
    const [t, cpu] = [performance.now(), process.cpuUsage()]
    await fulltextRanking(db.sql, scope, q.text, 10)
    const used = process.cpuUsage(cpu)
    wall.push(performance.now() - t)
    cpuMs.push((used.user + used.system) / 1000)
  }
  return { wall, cpu: cpuMs }
}

/** Every question over HTTP (latency at topK 10, quality at topK 100), then the ranking alone. */
async function measureService(db: Database, ask: Ask, data: BeirData, scope: ReturnType<typeof scopeOf>) {
  for (const q of data.questions.slice(0, 10)) await ask(q.text, 10) // warm-up
  const latencies: number[] = []
  for (const q of data.questions) latencies.push((await ask(q.text, 10)).ms)
  const rows = []
  const latencies100: number[] = []
  for (const q of data.questions) {
    const { ms, docs } = await ask(q.text, 100)
    latencies100.push(ms)
    rows.push(measures(docs, data.qrels.get(q.id)!))
  }
  const ranking = await rankingTimes(db, scope, data)
  return {
    ...mean(rows),
    p50_ms: round(percentile(latencies, 50)), p95_ms: round(percentile(latencies, 95)),
    topk100_p50_ms: round(percentile(latencies100, 50)),
    ranking_p50_ms: round(percentile(ranking.wall, 50)), ranking_p95_ms: round(percentile(ranking.wall, 95)),
    ranking_cpu_p50_ms: round(percentile(ranking.cpu, 50)), ranking_cpu_p95_ms: round(percentile(ranking.cpu, 95)),
  }
}

function printTable(service: Awaited<ReturnType<typeof measureService>>, reference: Awaited<ReturnType<typeof referenceBm25>>): void {
  console.log(`\nmachine: ${machine()}; load average at end: ${os.loadavg().map(l => l.toFixed(2)).join(' ')}`)
  console.log('| system | nDCG@10 | Recall@100 | MRR@10 | query p50 | p95 |')
  console.log('|---|---|---|---|---|---|')
  console.log(`| this service, full-text (HTTP, topK 10) | ${service.ndcg10} | ${service.recall100} | ${service.mrr10} | ${service.p50_ms} ms | ${service.p95_ms} ms |`)
  console.log(`| its full-text ranking alone (SQL) | | | | ${service.ranking_p50_ms} ms | ${service.ranking_p95_ms} ms |`)
  console.log(`| its full-text ranking alone, CPU time | | | | ${service.ranking_cpu_p50_ms} ms | ${service.ranking_cpu_p95_ms} ms |`)
  console.log(`| BM25 reference (whole documents, in memory) | ${reference.ndcg10} | ${reference.recall100} | ${reference.mrr10} | ${reference.p50_ms} ms | ${reference.p95_ms} ms |`)
}

export async function run(argv: string[] = []): Promise<void> {
  const dir = option(argv, 'beir') ?? process.env.BENCH_BEIR
  if (!dir) throw new Error('usage: npm run bench:retrieval -- --beir DIR [--split NAME] [--queries N]')
  const data = readBeir(dir, option(argv, 'split'))
  const limit = Number(option(argv, 'queries') ?? 0)
  if (limit > 0) data.questions = data.questions.slice(0, limit)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-retrieval-'))
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'DATABASE_URL']) delete process.env[key]
  Object.assign(process.env, { DATA_DIR: dataDir, WORKER: 'off', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' })
  console.log(`load average at start: ${os.loadavg().map(l => l.toFixed(2)).join(' ')}`)
  const db = await getDatabase()
  const server = await serveRoutes([
    [/^\/api\/datastores\/upsert\/([^/]+)$/, ['datastoreId'], upsert.POST as never],
    [/^\/api\/datastores\/([^/]+)\/query$/, ['id'], datastoreQuery.POST as never],
  ])
  try {
    const org = await db.prisma.organization.create({ data: { name: 'bench' } })
    const { secret } = await createApiKey({ organizationId: org.id, actor: { type: 'user', userId: 'bench' } }, 'bench')
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
    const store = await db.prisma.datastore.create({ data: { organizationId: org.id, name: 'beir' } })
    // ingest through the service's own code
    const chunks = await ingest(db, server.url, headers, store.id, data)
    const ask: Ask = async (query, topK) => {
      const t = performance.now()
      const res = await fetch(`${server.url}/api/datastores/${store.id}/query`, { method: 'POST', headers, body: JSON.stringify({ query, topK }) })
      const fragments = (await res.json()) as { metadata: { beir_id?: string } }[]
      if (res.status !== 200) throw new Error(`query failed: ${res.status} ${JSON.stringify(fragments).slice(0, 200)}`)
      return { ms: performance.now() - t, docs: [...new Set(fragments.map(f => String(f.metadata.beir_id)))] }
    }
    // as on a user's server between a sync and the questions: the embedded database's own maintenance (ANALYZE
    // when due, the full-text index's pending entries merged; lib/db/auto-analyze.ts) runs once
    await new Promise(resolve => setTimeout(resolve, CHECK_EVERY_MS + 2_000))
    const scope = scopeOf({ organizationId: org.id, datastoreIds: [store.id] }, { datastoreIndex: false })
    const service = await measureService(db, ask, data, scope)
    const reference = await referenceBm25(db.sql, data)
    console.log(JSON.stringify({ chunks, questions: data.questions.length, service, reference }))
    printTable(service, reference)
  } finally {
    await server.close()
    await db.close()
    useDatabase(undefined)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
