// `npm run bench:query`: datastore query latency over HTTP (p50/p95) with 10,000 and 100,000 chunks of 1536
// dimensions in one datastore, and recall@10 of the vector ranking against an exact search, on the embedded default.
// Chunks are bulk-inserted with raw SQL (their embeddings computed in-process by the same function the local
// embeddings server uses), then the HNSW index is rebuilt and its build time reported.
// Sizes: BENCH_QUERY_SIZES (default "10000,100000"); queries per size: BENCH_QUERIES (default 200), of which
// BENCH_RECALL_QUERIES (default 50) are also run exactly for recall; BENCH_DIMENSIONS (default 1536);
// BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL (a fresh schema) instead of the embedded default.
import { CHECK_EVERY_MS } from '@/lib/db/auto-analyze'
import * as datastoreQuery from '@/app/api/datastores/[id]/query/route'
import { newId } from '@/lib/db/ids'
import { toVectorBinary } from '@/lib/db/vector-binary'
import { fulltextRanking } from '@/lib/search/fulltext'
import { poolSize, vectorSearch } from '@/lib/search/hybrid-search'
import { scopeOf } from '@/lib/search/scope'
import { toVectorLiteral } from '@/lib/embeddings/provider'
import { vectorIndexDefinition, vectorIndexName } from '@/lib/db/vector-index'
import { Corpus, DIMENSIONS, envInt, machine, openBenchEnvironment, percentile, round, serveRoutes, type BenchEnvironment } from './datastore-support'
import { benchEmbedding } from './embeddings-server'

const CHUNKS_PER_DATASOURCE = 100
const WORDS_PER_CHUNK = 200
const LOAD_BATCH = 2000
const ROWS_PER_INSERT = 250
const TOP_K = 10

export async function loadChunks(env: BenchEnvironment, storeId: string, corpus: Corpus, from: number, to: number) {
  const { prisma } = env.db
  for (let start = from; start < to; start += LOAD_BATCH) {
    const end = Math.min(to, start + LOAD_BATCH)
    const datasources = new Map<number, string>()
    for (let i = start; i < end; i++) {
      const n = Math.floor(i / CHUNKS_PER_DATASOURCE)
      if (!datasources.has(n)) datasources.set(n, newId())
    }
    const fresh = [...datasources].filter(([n]) => n * CHUNKS_PER_DATASOURCE >= start)
    await prisma.datasource.createMany({
      data: fresh.map(([n, id]) => ({
        id, organizationId: env.organizationId, datastoreId: storeId, type: 'text' as const, name: `Document ${n}`,
        status: 'synched' as const, nbChunks: CHUNKS_PER_DATASOURCE, lastSynch: new Date(),
      })),
    })
    const rows = []
    for (let i = start; i < end; i++) {
      const text = corpus.text(i % corpus.topics.length, WORDS_PER_CHUNK)
      rows.push({
        id: newId(), datasourceId: datasources.get(Math.floor(i / CHUNKS_PER_DATASOURCE))!, position: i % CHUNKS_PER_DATASOURCE,
        text, tokens: Math.round(text.length / 4), embedding: benchEmbedding(text, DIMENSIONS),
      })
    }
    // as the worker writes them: many rows per INSERT, the embedding as pgvector's binary form
    for (let r = 0; r < rows.length; r += ROWS_PER_INSERT) {
      const params: unknown[] = [env.organizationId, storeId]
      const values = rows.slice(r, r + ROWS_PER_INSERT).map(row => {
        params.push(row.id, row.datasourceId, row.position, row.text, row.tokens, toVectorBinary(Array.from(row.embedding)))
        const p = params.length - 6
        return `($${p + 1}, $1, $2, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}::vector)`
      })
      await env.db.sql.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ${values.join(', ')}`,
        params,
      )
    }
  }
}

export async function buildIndex(env: BenchEnvironment): Promise<number> {
  const name = vectorIndexName(DIMENSIONS)
  const { sql } = env.db
  await sql.exec(`DROP INDEX IF EXISTS "${name}"`)
  await sql.exec(`SET maintenance_work_mem = '${process.env.BENCH_MAINTENANCE_WORK_MEM ?? '1GB'}'`)
  const started = Date.now()
  await sql.exec(vectorIndexDefinition(DIMENSIONS))
  const ms = Date.now() - started
  await sql.exec('RESET maintenance_work_mem')
  // no ANALYZE of our own: the planner's statistics are what the app's maintenance gives it (lib/db/auto-analyze.ts
  // on the embedded database, autovacuum on PostgreSQL), after one of its periods
  await new Promise(resolve => setTimeout(resolve, CHECK_EVERY_MS + 2_000))
  return ms
}

/** Exact nearest neighbours: the same filter, a sequential scan (no index), true cosine order. */
export async function exactNeighbours(env: BenchEnvironment, storeId: string, embedding: Float32Array, k: number): Promise<string[]> {
  return env.db.sql.transaction(async tx => {
    await tx.exec('SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off')
    const rows = await tx.query<{ id: string }>(
      `SELECT id FROM "Chunk" WHERE "datastoreId" = $1 AND vector_dims("embedding") = ${DIMENSIONS}
       ORDER BY "embedding"::vector(${DIMENSIONS}) <=> $2::vector(${DIMENSIONS}) LIMIT ${k}`,
      [storeId, toVectorLiteral(Array.from(embedding))],
    )
    return rows.map(r => r.id)
  })
}

type Scope = { organizationId: string; datastoreIds: string[] }

/** Each question over HTTP (a new server and connection per size: an idle keep-alive one may close while chunks load). */
async function httpLatencies(env: BenchEnvironment, storeId: string, queries: string[]): Promise<number[]> {
  const headers = { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' }
  const server = await serveRoutes([[/^\/api\/datastores\/([^/]+)\/query$/, ['id'], datastoreQuery.POST as never]])
  const ask = async (query: string) => {
    const t = performance.now()
    const res = await fetch(`${server.url}/api/datastores/${storeId}/query`, { method: 'POST', headers, body: JSON.stringify({ query, topK: TOP_K }) })
    const fragments = (await res.json()) as unknown[]
    if (res.status !== 200 || fragments.length === 0) throw new Error(`query failed: ${res.status} ${JSON.stringify(fragments).slice(0, 200)}`)
    return performance.now() - t
  }
  for (const q of queries.slice(0, 10)) await ask(q) // warm-up
  const latencies: number[] = []
  for (const q of queries) latencies.push(await ask(q))
  await server.close()
  return latencies
}

/** The vector ranking alone (index, candidates for topK 10) and the full-text ranking alone, as queries run them, warm. */
async function rankingLatencies(env: BenchEnvironment, scope: Scope, queries: string[]): Promise<{ vector: number[]; fulltext: number[] }> {
  const vector: number[] = []
  for (const q of queries) {
    const embedding = Array.from(benchEmbedding(q, DIMENSIONS))
    const t = performance.now()
    await vectorSearch(scope, embedding, poolSize(TOP_K))
    vector.push(performance.now() - t)
  }
  const fulltext: number[] = []
  for (const q of queries) {
    const t = performance.now()
    await fulltextRanking(env.db.sql, scopeOf(scope, { datastoreIndex: false }), q, poolSize(TOP_K))
    fulltext.push(performance.now() - t)
  }
  return { vector, fulltext }
}

/** The vector ranking's hits in the true top 10 (an exact search: a sequential scan of every vector). */
async function recallHits(env: BenchEnvironment, storeId: string, scope: Scope, queries: string[]): Promise<number> {
  let hits = 0
  for (const q of queries) {
    const embedding = benchEmbedding(q, DIMENSIONS)
    const approx = (await vectorSearch(scope, Array.from(embedding), poolSize(TOP_K))).slice(0, TOP_K)
    const truth = new Set(await exactNeighbours(env, storeId, embedding, TOP_K))
    hits += approx.filter(id => truth.has(id)).length
  }
  return hits
}

/** One size: the questions over HTTP, the rankings alone, recall@10; the chunks are loaded and indexed already. */
async function measureSize(env: BenchEnvironment, storeId: string, corpus: Corpus, size: number, counts: { queries: number; recall: number }, build: { loadMs: number; indexMs: number }) {
  const queries = Array.from({ length: counts.queries }, () => corpus.query(Math.floor(corpus.random() * corpus.topics.length)))
  const latencies = await httpLatencies(env, storeId, queries)
  const scope = { organizationId: env.organizationId, datastoreIds: [storeId] }
  const rankings = await rankingLatencies(env, scope, queries)
  const hits = await recallHits(env, storeId, scope, queries.slice(0, counts.recall))
  return {
    chunks: size,
    dimensions: DIMENSIONS,
    queries: counts.queries,
    p50_ms: round(percentile(latencies, 50)),
    p95_ms: round(percentile(latencies, 95)),
    max_ms: round(Math.max(...latencies)),
    vector_sql_p50_ms: round(percentile(rankings.vector, 50)),
    fulltext_sql_p50_ms: round(percentile(rankings.fulltext, 50)),
    recall_at_10: round(hits / (counts.recall * TOP_K), 3),
    recall_queries: counts.recall,
    load_s: round(build.loadMs / 1000),
    index_build_s: round(build.indexMs / 1000),
    // the service's process (PGlite's WebAssembly heap included with the embedded database)
    database: env.db.kind,
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
  }
}

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_QUERY_SIZES ?? '10000,100000').split(',').map(Number).filter(n => n > 0).sort((a, b) => a - b)
  const queryCount = envInt('BENCH_QUERIES', 200)
  // an exact search scans every vector (~1-2 s each at 100,000 chunks on PGlite): recall uses the first of the queries
  const recallCount = Math.min(queryCount, envInt('BENCH_RECALL_QUERIES', 50))
  const env = await openBenchEnvironment()
  const results: Awaited<ReturnType<typeof measureSize>>[] = []
  try {
    const store = await env.db.prisma.datastore.create({ data: { organizationId: env.organizationId, name: 'bench' } })
    const corpus = new Corpus()
    let loaded = 0
    for (const size of sizes) {
      await env.db.sql.exec(`DROP INDEX IF EXISTS "${vectorIndexName(DIMENSIONS)}"`)
      const started = Date.now()
      await loadChunks(env, store.id, corpus, loaded, size)
      const loadMs = Date.now() - started
      loaded = size
      const indexMs = await buildIndex(env)
      console.log(`${size} chunks: loaded ${size} in ${loadMs} ms (multi-row INSERT, binary vectors, embeddings computed in-process); HNSW index built in ${round(indexMs / 1000)} s`)
      const row = await measureSize(env, store.id, corpus, size, { queries: queryCount, recall: recallCount }, { loadMs, indexMs })
      results.push(row)
      console.log(JSON.stringify(row))
    }
    console.log(`\nmachine: ${machine()}`)
    console.log(`| chunks (${DIMENSIONS} dims, ${env.db.kind}) | query p50 | p95 | recall@10 | vector ranking p50 | full-text ranking p50 | HNSW build | process RSS |`)
    console.log('|---|---|---|---|---|---|---|---|')
    for (const r of results) {
      console.log(`| ${r.chunks.toLocaleString('en')} | ${r.p50_ms} ms | ${r.p95_ms} ms | ${r.recall_at_10} | ${r.vector_sql_p50_ms} ms | ${r.fulltext_sql_p50_ms} ms | ${r.index_build_s} s | ${r.rss_mb} MB |`)
    }
  } finally {
    await env.close()
  }
}
