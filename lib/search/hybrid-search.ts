import { getDatabase } from '@/lib/db/client'
import { GENERIC_PLAN, underSettings, type SqlDriver, type SqlStatements } from '@/lib/db/sql-driver'
import { logger } from '@/lib/logger'
import { metrics } from '@/lib/metrics/registry'
import { toVectorBinary } from '@/lib/db/vector-binary'
import { ensureVectorIndex, vectorIndexKind } from '@/lib/db/vector-index'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { fuseRankings } from './fusion'
import { memoryNearest } from './bm25-memory'
import { bm25ScoreSql, byScore, fulltextRankingOf, textStatistics, type FulltextResult, type RankedChunk, type TextStatistics } from './fulltext'
import { readFragments } from './fragments'
import { relevanceScores } from './relevance'
import { inSpan } from '@/lib/tracing/spans'
import { rerankerSettings, rerankFragments } from './rerank'
import { scopeOf, type Scope } from './scope'
import type { Fragment, HybridSearchInput } from './types'

// Candidates taken from each ranking before fusion
const MIN_POOL = 20
const MAX_POOL = 400

const iterativeScan = new Map<string, Promise<boolean>>()

/** pgvector 0.8+ can keep scanning its HNSW index until enough rows pass the filters. */
function supportsIterativeScan(sql: SqlDriver): Promise<boolean> {
  let known = iterativeScan.get(sql.kind)
  if (!known) {
    known = sql
      .query<{ v: string }>(`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`)
      .then(rows => {
        const [major, minor] = (rows[0]?.v ?? '0.0').split('.').map(Number)
        return major > 0 || minor >= 8
      })
      .catch(() => false)
    iterativeScan.set(sql.kind, known)
  }
  return known
}

// Candidates taken from the binary-quantized index for re-ranking by exact cosine distance: at least this many, and
// at least RERANK_FACTOR × the ranking's size. Measured at 100,000 chunks of 1536 dimensions (docs/benchmarks-history.md):
// recall@10 ≈ 0.8 with 100 candidates, 0.94 with 200, 0.99 with 400; each 100 more cost ~1.5 ms.
const MIN_RERANK_CANDIDATES = 400
const RERANK_FACTOR = 5
const MAX_RERANK_CANDIDATES = 1000
// The full-precision index's walk (ef_search): at least this many, and twice the ranking's size
const MIN_FULL_PRECISION_EF_SEARCH = 100

/**
 * The vector ranking's statement for embeddings of `d` dimensions, as the index of that size serves it
 * (lib/db/vector-index.ts), with its settings: ef_search, how many candidates the index walk keeps, and the iterative
 * scan, which goes on walking when filters reject some. A full-precision index orders by cosine distance itself; the
 * binary-quantized one gives candidates by Hamming distance, re-ranked by exact cosine distance on the full vectors.
 * Each query repeats its index's expression and predicate (`vector_dims(embedding) = D`) so the planner uses it; D is
 * an integer from the config, never user input.
 */
export function vectorRankingStatement(scope: Scope, d: number, pool: number, iterative: boolean): { settings: string; text: string } {
  const q = scope.params.length + 1
  const iterate = iterative ? ` SET LOCAL hnsw.iterative_scan = relaxed_order;` : ''
  const distance = (embedding: string) => `${embedding}::vector(${d}) <=> $${q}::vector(${d})`
  if (vectorIndexKind(d) === 'full-precision') {
    return {
      settings: `SET LOCAL hnsw.ef_search = ${Math.max(MIN_FULL_PRECISION_EF_SEARCH, 2 * pool)};${iterate}`,
      // relaxed_order may return near ties out of order: sorted again, ties by id
      text: `SELECT id, distance FROM (
         SELECT c.id, ${distance('c."embedding"')} AS distance FROM "Chunk" c
         WHERE vector_dims(c."embedding") = ${d} AND ${scope.clause}
         ORDER BY ${distance('c."embedding"')} LIMIT ${pool}
       ) AS nearest ORDER BY distance, id COLLATE "C"`,
    }
  }
  const candidates = Math.min(MAX_RERANK_CANDIDATES, Math.max(MIN_RERANK_CANDIDATES, Math.ceil(pool * RERANK_FACTOR)))
  return {
    settings: `SET LOCAL hnsw.ef_search = ${candidates};${iterate}`,
    text: `SELECT id, distance FROM (
       SELECT candidate.id, ${distance('candidate."embedding"')} AS distance FROM (
         SELECT c.id, c."embedding" FROM "Chunk" c
         WHERE vector_dims(c."embedding") = ${d} AND ${scope.clause}
         ORDER BY binary_quantize(c."embedding")::bit(${d}) <~> binary_quantize($${q}::vector(${d}))
         LIMIT ${candidates}
       ) AS candidate
     ) AS ranked
     ORDER BY distance, id COLLATE "C"
     LIMIT ${pool}`,
  }
}

/** Nearest chunks by cosine distance, the `pool` nearest in scope, best first. */
async function vectorRanking(sql: SqlDriver, scope: Scope, embedding: number[], pool: number): Promise<RankedChunk[]> {
  await ensureVectorIndex(sql, embedding.length)
  const statement = vectorRankingStatement(scope, embedding.length, pool, await supportsIterativeScan(sql))
  const rows = await sql.queryWithSettings<{ id: string; distance: number }>(
    statement.settings,
    statement.text,
    // binary: PGlite would spend milliseconds parsing 1536 floats from text
    [...scope.params, toVectorBinary(embedding)],
  )
  // cosine similarity, higher is better
  return rows.map(r => ({ id: r.id, score: 1 - Number(r.distance) }))
}

/**
 * The vector ranking alone, as hybridSearch runs it (index, ef_search, iterative scan): the ids of the `limit` nearest
 * chunks in scope. For measurements (recall against an exact search) and callers that want no full-text part.
 */
export async function vectorSearch(input: Omit<HybridSearchInput, 'query' | 'topK' | 'signal'>, embedding: number[], limit: number): Promise<string[]> {
  const { sql } = await getDatabase()
  return (await vectorRanking(sql, scopeOf(input), embedding, limit)).map(r => r.id)
}

/** The vector ranking's candidates, and, from the embeddings in memory, any chunk's cosine similarity. */
export interface MeaningResult {
  embedding: number[]
  ranking: RankedChunk[]
  cosineOf?: (id: string) => number | null
}

/**
 * Each ranking's candidates scored by the other too: a chunk among the nearest by meaning gets its BM25 score, one
 * among the best by words its cosine similarity, so that the fusion compares every candidate on both (instead of
 * counting 0 where a chunk missed the other ranking's cut). From memory where a ranking came from it (bm25-memory.ts),
 * else one statement by primary key; the chunks are in scope already (each ranking applied it). A chunk holding no
 * word of the question has BM25 0, one without an embedding of the question's size no cosine: both stay out, as 0.
 */
export async function completeScores(sql: SqlStatements, words: FulltextResult, meaning: MeaningResult) {
  const inWords = new Set(words.ranking.map(r => r.id))
  const inMeaning = new Set(meaning.ranking.map(r => r.id))
  const meaningOnly = meaning.ranking.filter(r => !inWords.has(r.id)).map(r => r.id)
  const wordsOnly = words.ranking.filter(r => !inMeaning.has(r.id)).map(r => r.id)
  const { scoreOf } = words
  const { cosineOf } = meaning
  const read = [...(scoreOf ? [] : meaningOnly), ...(cosineOf ? [] : wordsOnly)]
  const rows = read.length === 0 ? [] : await scoresByStatement(sql, read, scoreOf ? null : words.stats, meaning.embedding)
  const bm25 = scoreOf ? meaningOnly.map(id => ({ id, score: scoreOf(id) })) : rows.map(r => ({ id: r.id, score: Number(r.bm25) }))
  const cosine = cosineOf ? wordsOnly.map(id => ({ id, score: cosineOf(id) })) : rows.map(r => ({ id: r.id, score: r.distance === null ? null : 1 - Number(r.distance) }))
  const moreWords = bm25.filter(r => !inWords.has(r.id) && r.score > 0)
  const moreMeaning = cosine.filter((r): r is RankedChunk => !inMeaning.has(r.id) && r.score !== null)
  return {
    words: { ...words, ranking: [...words.ranking, ...moreWords].sort(byScore) },
    meaning: [...meaning.ranking, ...moreMeaning].sort(byScore),
  }
}

/** Chunks' BM25 scores (0 without `stats`) and cosine distances (null: no embedding of that size), by id. */
function scoresByStatement(sql: SqlStatements, ids: string[], stats: TextStatistics | null, embedding: number[]) {
  const d = embedding.length
  const bm25 = bm25ScoreSql(stats, 3)
  return sql.query<{ id: string; bm25: number; distance: number | null }>(
    `SELECT c.id, ${bm25.sql} AS bm25,
            CASE WHEN vector_dims(c."embedding") = ${d} THEN c."embedding"::vector(${d}) <=> $2::vector(${d}) END AS distance
     FROM "Chunk" c WHERE c.id = ANY($1::text[])`,
    [ids, toVectorBinary(embedding), ...bm25.params],
  )
}

/**
 * The vector ranking: from the embeddings in memory when the question's statistics (`stats`: null without a
 * question) report the searched datastores' kept versions, else by its statement.
 */
async function meaningRanking(sql: SqlDriver, input: HybridSearchInput, stats: TextStatistics | null, embedding: number[], pool: number): Promise<MeaningResult> {
  const scope = scopeOf(input)
  const kept = stats && memoryNearest(sql, scope, stats, embedding, pool)
  metrics().searchRankings.inc({ kind: 'meaning', source: kept ? 'memory' : 'statements' })
  if (kept) return { embedding, ...kept }
  return { embedding, ranking: await vectorRanking(sql, scope, embedding, pool) }
}

/** The size of the candidate pool each ranking contributes for `topK` results. */
export function poolSize(topK: number): number {
  return Math.min(MAX_POOL, Math.max(MIN_POOL, topK * 4))
}

/** The query's embedding, or null without a provider or when it fails (then the search goes on by words only). */
async function embedQuery(input: HybridSearchInput): Promise<number[] | null> {
  const provider = embeddingsProvider()
  if (!provider) return null
  try {
    const [embedding] = await provider.embed([input.query], { signal: input.signal, maxRetries: 1 })
    return embedding
  } catch (error) {
    if (input.signal?.aborted) throw error
    logger.warn('query embedding failed: searching by words only', { error: error instanceof Error ? error.message : String(error) })
    return null
  }
}

/**
 * Hybrid retrieval (DESIGN.md §6): BM25 over PostgreSQL full-text search always, cosine similarity over the
 * embeddings when a provider is configured, fused by a convex combination of the normalised scores (fusion.ts), then,
 * when a reranker is configured (and `rerank` is not false), the first RERANK_CANDIDATES reordered by it (rerank.ts).
 * The scope (organization, datastores, visible datasources) and the filters are inside both queries, before
 * ranking. `score` is the relevance of relevance.ts (or the reranker's), comparable across queries.
 */
export async function hybridSearch(input: HybridSearchInput): Promise<Fragment[]> {
  if (input.datastoreIds.length === 0 || input.topK <= 0) return []
  const { sql } = await getDatabase()
  const reranker = input.rerank === false ? null : rerankerSettings()
  const depth = reranker ? Math.max(input.topK, reranker.candidates) : input.topK
  // the full-text ranking runs while the query is embedded (a provider's round trip is often the longest step). Its
  // exact top `depth` suffices: the vector ranking's candidates get their BM25 scores by id (completeScores), while
  // the approximate vector ranking contributes a wider pool. Both read the question's statistics (the versions of
  // what this process keeps in memory)
  const wordsScope = scopeOf(input, { datastoreIndex: false })
  const statistics = input.query.trim() ? textStatistics(sql, wordsScope, input.query) : Promise.resolve(null)
  const fulltext = statistics.then(stats => fulltextRankingOf(sql, wordsScope, stats, depth))
  const vector = embedQuery(input).then(async embedding => embedding && meaningRanking(sql, input, await statistics, embedding, poolSize(depth)))
  const [found, nearest] = await Promise.all([fulltext, vector])
  // both read chunks by id
  const byId = underSettings(sql, GENERIC_PLAN)
  const { words, meaning } = nearest ? await completeScores(byId, found, nearest) : { words: found, meaning: null }
  const fused = fuseRankings(words.ranking, meaning, depth)
  if (fused.length === 0) return []
  const candidates = await readFragments(byId, relevanceScores(fused, words, meaning))
  if (!reranker) return candidates
  return inSpan('search.rerank', { 'search.candidates': candidates.length }, () => rerankFragments(reranker, input.query, candidates, input.topK, input.signal))
}
