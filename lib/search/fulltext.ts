import { GENERIC_PLAN, underSettings, type SqlDriver, type SqlStatements } from '@/lib/db/sql-driver'
import { metrics } from '@/lib/metrics/registry'
import { qualifyingTermSets, setsQuery } from './bm25-candidates'
import { HIDDEN_CONTENT, memoryRanking, versionsOf, type VersionColumns } from './bm25-memory'
import { BM25_B, BM25_K1, byScore, type QueryTerm, type RankedChunk, type TextStatistics } from './bm25-scoring'
import type { Scope } from './scope'

export { BM25_B, BM25_K1, byScore, type QueryTerm, type RankedChunk, type TextStatistics } from './bm25-scoring'

// Distinct lexemes of a question that count
const MAX_QUERY_LEXEMES = 64
// Chunks a round of the ranking may fetch (by its terms' document frequencies): a round fetches the next rarest
// terms up to this many, and at least one term
export const FULLTEXT_ROUND_BUDGET = 1500
// The first round's: until it ends θ is 0 and nothing can be pruned, so it fetches only the rarest terms, whose
// chunks set θ; the next rounds then skip or intersect the commoner ones. On SciFact claims at 1,000 abstracts, a
// first round of 1,500 scored ~480 chunks on every term; 300 is 15–25 % less BM25 time, the same rankings
// (docs/benchmarks.md, session 13)
export const FULLTEXT_FIRST_ROUND_BUDGET = 300

type Tx = SqlStatements

const BM25_ROUND_SETTINGS = `SET LOCAL enable_seqscan = off; ${GENERIC_PLAN}`

/** BM25's inverse document frequency of a lexeme found in `df` of `n` chunks (Lucene's, never negative). */
export function inverseDocumentFrequency(df: number, n: number): number {
  return Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5))
}

/** A tsquery of lexemes joined by `operator`, each quoted so that no character of it is tsquery syntax. */
export function lexemeQuery(lexemes: string[], operator: '|' | '&'): string {
  return lexemes.map(l => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(` ${operator} `)
}

/** A term's largest possible BM25 weight in any chunk (the term-frequency part tends to k1 + 1). */
const upperBound = (t: QueryTerm) => t.idf * (BM25_K1 + 1)

/**
 * The question's lexemes, tokenised by PostgreSQL exactly as chunks are (search_document() in the language of each
 * searched datastore: a datastore in French and one in English each get their own stems), with each lexeme's
 * document frequency summed over the searched datastores, and their chunk count and total length. Index lookups
 * only: the statistics are kept by triggers on "Chunk" (migration 20261126130000_bm25_search).
 */
export async function textStatistics(sql: Tx, scope: Scope, query: string): Promise<TextStatistics> {
  const rows = await sql.query<{ lexeme: string | null; df: number; chunks: number; length: number } & VersionColumns>(
    `WITH ds AS (
       SELECT id, "language" FROM "Datastore" WHERE id = ANY($2::text[]) AND "organizationId" = $1
     ), q AS (
       SELECT DISTINCT u.lexeme FROM (SELECT DISTINCT "language" FROM ds) s, unnest(search_document(s."language"::regconfig, $3)) u
       ORDER BY 1 LIMIT ${MAX_QUERY_LEXEMES}
     ), totals AS (
       SELECT COALESCE(sum(t.chunks), 0)::float8 AS chunks, COALESCE(sum(t.length), 0)::float8 AS length,
              array_agg(t."datastoreId") AS datastores, array_agg(t.version::text) AS versions
       FROM "DatastoreTextStats" t WHERE t."datastoreId" IN (SELECT id FROM ds)
     ), ${HIDDEN_CONTENT}
     SELECT q.lexeme, COALESCE((SELECT sum(t.df) FROM "DatastoreTerm" t WHERE t."datastoreId" IN (SELECT id FROM ds) AND t.lexeme = q.lexeme), 0)::int AS df,
            totals.chunks, totals.length, totals.datastores, totals.versions, hidden.datasources AS "hiddenDatasources", hidden.generations AS "hiddenGenerations"
     FROM totals CROSS JOIN hidden LEFT JOIN q ON true`,
    [scope.params[0], scope.params[1], query],
  )
  const chunks = rows[0]?.chunks ?? 0
  const averageLength = chunks > 0 ? Math.max(rows[0].length / chunks, 1) : 1
  const terms = rows
    .filter(r => r.lexeme !== null && r.df > 0)
    .map(r => ({ lexeme: r.lexeme!, df: r.df, idf: inverseDocumentFrequency(r.df, chunks) }))
    // rarest first; equal frequencies in lexeme order, so that every step is deterministic
    .sort((a, b) => b.idf - a.idf || (a.lexeme < b.lexeme ? -1 : 1))
  const missing = rows.filter(r => r.lexeme !== null && r.df === 0).length
  return { terms, chunks, averageLength, missing, ...versionsOf(rows[0]) }
}

/**
 * SQL: a chunk's BM25 score for all the terms, each term's weight written as
 * idf · (k1 + 1) / (1 + k1 · (1 - b + b · length / average) / tf), so that tf is computed once (weight 0 without the term).
 * Parameters from `firstParam`: the terms' one-lexeme tsqueries, their idf · (k1 + 1), then k1 · (1 - b) and
 * k1 · b / average. Nothing of the question is written into the text, so that its shape (the number of terms) comes
 * again and the embedded database's thread runs it prepared (lib/db/pglite-thread-source.ts).
 * In single precision (real): on PGlite every double-precision result is a memory allocation, and a query scores
 * thousands of terms × candidates; 7 significant digits are plenty for a ranking.
 */
function scoreSql(stats: TextStatistics, terms: QueryTerm[], firstParam: number): { sql: string; params: (string | number)[] } {
  const n = terms.length
  if (n === 0) return { sql: '0::real', params: [] }
  const constant = firstParam + 2 * n
  const norm = `($${constant}::real + $${constant + 1}::real * c."tsvLength"::real)`
  // a chunk holds few of the question's terms: the containment test (~half a term's weight on PGlite) spares the
  // weight of the others, and a term held has a frequency of at least 1
  const sql = terms
    .map((_, i) => `CASE WHEN c.tsv @@ $${firstParam + i}::tsquery THEN $${firstParam + n + i}::real / (1::real + ${norm} / search_term_frequency(c.tsv, $${firstParam + i}::tsquery)) ELSE 0::real END`)
    .join(' + ')
  const params = [
    ...terms.map(t => lexemeQuery([t.lexeme], '|')),
    ...terms.map(t => t.idf * (BM25_K1 + 1)),
    BM25_K1 * (1 - BM25_B),
    (BM25_K1 * BM25_B) / stats.averageLength,
  ]
  return { sql, params }
}

/**
 * The `limit` best chunks by BM25 among those matching the tsquery `fetch` (and holding none of `seen`, already
 * ranked), in scope. The GIN index on tsv finds them; each candidate's score reads only its row (tsvector and length).
 */
async function rankCandidates(tx: Tx, scope: Scope, stats: TextStatistics, fetch: string, seen: QueryTerm[], limit: number): Promise<RankedChunk[]> {
  const params = [...scope.params, fetch]
  const fetchParam = params.length
  let exclude = ''
  if (seen.length > 0) {
    params.push(lexemeQuery(seen.map(t => t.lexeme), '|'))
    exclude = `AND NOT c.tsv @@ $${params.length}::tsquery`
  }
  // a candidate holds none of the terms seen (excluded above): they add nothing to its score
  const scored = stats.terms.filter(t => !seen.includes(t))
  const score = scoreSql(stats, scored, params.length + 1)
  params.push(...score.params)
  const rows = await tx.query<{ id: string; score: number }>(
    `SELECT c.id, (${score.sql})::float8 AS score FROM "Chunk" c
     WHERE c.tsv @@ $${fetchParam}::tsquery ${exclude} AND ${scope.clause}
     ORDER BY score DESC, c.id COLLATE "C" LIMIT ${limit}`,
    params,
  )
  return rows.map(r => ({ id: r.id, score: Number(r.score) }))
}

/**
 * The exact top `limit` chunks by BM25, without scoring every chunk that shares a word with the question (MaxScore,
 * Turtle & Flood 1995). Terms are fetched rarest first, a few at a time (FULLTEXT_FIRST_ROUND_BUDGET chunks in the
 * first round, FULLTEXT_ROUND_BUDGET after); after each
 * round, θ is the limit-th best score so far, and the commonest terms whose upper bounds together stay below θ are
 * never fetched: a chunk holding only those cannot enter the top. Chunks fetched are scored on every term they may
 * hold (a round excludes the chunks of earlier rounds, so it skips their terms). Once the chunks still able to reach
 * θ must hold several of the remaining terms together, one last statement asks the index for exactly those
 * (lib/search/bm25-candidates.ts) instead of every chunk holding any of them.
 */
export async function rankByBm25(tx: Tx, scope: Scope, stats: TextStatistics, limit: number, budget = FULLTEXT_ROUND_BUDGET, firstBudget = Math.min(budget, FULLTEXT_FIRST_ROUND_BUDGET)): Promise<RankedChunk[]> {
  const { terms } = stats
  let best: RankedChunk[] = []
  let fetched = 0
  while (fetched < terms.length) {
    const theta = best.length >= limit ? best[limit - 1].score : 0
    let end = terms.length
    for (let bound = 0; end > fetched && bound + upperBound(terms[end - 1]) < theta; end--) bound += upperBound(terms[end - 1])
    if (end === fetched) break
    const rest = terms.slice(fetched)
    const sets = theta > 0 ? qualifyingTermSets(rest.map(upperBound), theta) : null
    if (sets && sets.filter(s => s.length === 1).reduce((n, [i]) => n + rest[i].df, 0) <= budget) {
      if (sets.length === 0) return best
      const found = await rankCandidates(tx, scope, stats, setsQuery(sets.map(s => s.map(i => rest[i].lexeme))), terms.slice(0, fetched), limit)
      return [...best, ...found].sort(byScore).slice(0, limit)
    }
    let next = fetched + 1
    const roundBudget = fetched === 0 ? firstBudget : budget
    for (let total = terms[fetched].df; next < end && total + terms[next].df <= roundBudget; next++) total += terms[next].df
    const found = await rankCandidates(tx, scope, stats, lexemeQuery(terms.slice(fetched, next).map(t => t.lexeme), '|'), terms.slice(0, fetched), limit)
    best = [...best, ...found].sort(byScore).slice(0, limit)
    fetched = next
  }
  return best
}

/**
 * BM25's ceiling of a question (lib/search/relevance.ts): the score of a chunk of average length holding each of its
 * lexemes once, Σ idf, where a lexeme found in no chunk counts with the idf of df = 0 (the rarest possible).
 */
export function bm25Ceiling(stats: TextStatistics): number {
  return stats.terms.reduce((sum, t) => sum + t.idf, 0) + (stats.missing ?? 0) * inverseDocumentFrequency(0, stats.chunks)
}

/**
 * Chunks ranked by BM25 (Robertson & Zaragoza) over PostgreSQL full-text search, best first with their scores: term
 * frequency from each chunk's tsvector, length normalisation by its stored length, IDF from the exact statistics of
 * the searched datastores. Filters restrict the candidates, not the statistics (as in Lucene). `limit` at most.
 */
export async function fulltextRanking(sql: SqlDriver, scope: Scope, query: string, limit: number): Promise<RankedChunk[]> {
  return (await fulltextRankingWithCeiling(sql, scope, query, limit)).ranking
}

export interface FulltextResult {
  ranking: RankedChunk[]
  /** The question's BM25 ceiling (0 when none of its words is known). */
  ceiling: number
  /** The question's terms and statistics, to score other chunks on the same scale (bm25Scores). */
  stats: TextStatistics | null
  /** When ranked from postings in memory (bm25-memory.ts): any chunk's score from them, as bm25ScoreSql's. */
  scoreOf?: (id: string) => number
}

/** fulltextRanking, with the question's BM25 ceiling and statistics. */
export async function fulltextRankingWithCeiling(sql: SqlDriver, scope: Scope, query: string, limit: number): Promise<FulltextResult> {
  return fulltextRankingOf(sql, scope, limit > 0 && query.trim() ? await textStatistics(sql, scope, query) : null, limit)
}

/** The same, from the question's statistics (null: no question). */
export async function fulltextRankingOf(sql: SqlDriver, scope: Scope, stats: TextStatistics | null, limit: number): Promise<FulltextResult> {
  if (!stats || limit <= 0) return { ranking: [], ceiling: 0, stats: null }
  if (stats.terms.length === 0) return { ranking: [], ceiling: 0, stats }
  // no sequential scan: the planner, without statistics for tsvector (nothing runs ANALYZE on PGlite), may prefer
  // reading every chunk of the table; the GIN index must find the candidates. Each round's query alone under that
  // setting, so that no transaction holds the embedded database between rounds. A round's plan is that whatever
  // the question (the index's bitmap, the scope as a filter: lib/search/scope.ts keeps the datastore's own index out),
  // so a prepared round reuses its generic plan instead of planning each time (PostgreSQL's choice otherwise, since
  // a plan for the question's own terms looks cheaper).
  const memory = memoryRanking(sql, scope, stats, limit)
  metrics().searchRankings.inc({ kind: 'words', source: memory ? 'memory' : 'statements' })
  if (memory) return { ranking: memory.ranking, ceiling: bm25Ceiling(stats), stats, scoreOf: memory.scoreOf }
  return { ranking: await rankByBm25(underSettings(sql, BM25_ROUND_SETTINGS), scope, stats, limit), ceiling: bm25Ceiling(stats), stats }
}

/**
 * SQL for a chunk's (alias `c`) BM25 score for the question of `stats`, on the same scale as its ranking, with its
 * parameters numbered from `firstParam`: to score chunks found by another ranking (hybrid-search.ts).
 */
export function bm25ScoreSql(stats: TextStatistics | null, firstParam: number): { sql: string; params: (string | number)[] } {
  if (!stats || stats.terms.length === 0) return { sql: '0::float8', params: [] }
  const score = scoreSql(stats, stats.terms, firstParam)
  return { sql: `(${score.sql})::float8`, params: score.params }
}
