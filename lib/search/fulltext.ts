import type { SqlDriver } from '@/lib/db/sql-driver'
import type { Scope } from './scope'

// Words of the query used for full-text search
const MAX_QUERY_WORDS = 64
// Chunks ranked at most per query: ranking reads each candidate's tsvector (~10-20 µs a row on PGlite), and counting
// a lexeme's matches stops past it
export const FULLTEXT_CANDIDATE_BUDGET = 500

/** The query's distinct words (at most 64), for to_tsvector: it drops stop words and stems the rest. */
export function queryWords(query: string): string | null {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_QUERY_WORDS)
  return words.length ? words.join(' ') : null
}

/** A tsquery of lexemes joined by `operator`, each quoted so that no character of it is tsquery syntax. */
export function lexemeQuery(lexemes: string[], operator: '|' | '&'): string {
  return lexemes.map(l => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(` ${operator} `)
}

/**
 * Which lexemes make full-text candidates. Each word of a question is a candidate-maker on its own (an OR, since a
 * natural-language question rarely has all its words in one chunk), except words so common in the searched
 * datastores that they would make most chunks candidates: like IDF in BM25, they carry little information, and
 * ranking thousands of chunks costs tens of milliseconds. So lexemes are taken rarest first while the chunks they
 * match stay within FULLTEXT_CANDIDATE_BUDGET; the others still count in the ranking. When even the rarest is too
 * common, candidates are the chunks having all the words found. `counts` are capped at budget + 1.
 */
export function candidateQuery(counts: { lexeme: string; n: number }[], budget = FULLTEXT_CANDIDATE_BUDGET): string {
  const sorted = [...counts].sort((a, b) => a.n - b.n || (a.lexeme < b.lexeme ? -1 : 1))
  const chosen: string[] = []
  let total = 0
  for (const { lexeme, n } of sorted) {
    if (n === 0) continue
    if (total + n > budget) break
    chosen.push(lexeme)
    total += n
  }
  if (chosen.length) return lexemeQuery(chosen, '|')
  return lexemeQuery(sorted.filter(c => c.n > 0).map(c => c.lexeme), '&')
}

/** SQL: the text column or expression `expr` (one lexeme) as a tsquery of that lexeme alone, quoted as lexemeQuery(). */
function lexemeAsTsquery(expr: string): string {
  return `('''' || replace(replace(${expr}, '\\', '\\\\'), '''', '''''') || '''')::tsquery`
}

/** BM25's inverse document frequency of a lexeme found in `n` of `total` chunks. */
export function inverseDocumentFrequency(n: number, total: number): number {
  const N = Math.max(total, n)
  return Math.log(1 + (N - n + 0.5) / (n + 0.5))
}

/**
 * Chunks ranked by the inverse document frequencies of the query's lexemes each contains (rarer words weigh more,
 * as in BM25), plus a cover-density bonus (`ts_rank_cd`, normalised to 0..1: the words close together), among the
 * candidates of candidateQuery(). Two statements: the lexemes with their counts (capped), then the ranking.
 */
export async function fulltextRanking(sql: SqlDriver, scope: Scope, query: string, pool: number): Promise<string[]> {
  // the GIN index on tsv must drive these statements: filtering every chunk of a datastore by its tsvector
  // (which the planner, with rough statistics for tsvector, may prefer) costs ~3 µs a chunk
  const words = queryWords(query)
  if (!words) return []
  const k = scope.params.length + 1
  const counts = await sql.query<{ lexeme: string; n: number; total: number }>(
    `SELECT l.lexeme, (
       SELECT count(*)::int FROM (
         SELECT 1 FROM "Chunk" c WHERE c.tsv @@ ${lexemeAsTsquery('l.lexeme')} AND ${scope.clause} LIMIT ${FULLTEXT_CANDIDATE_BUDGET + 1}
       ) AS matching
     ) AS n,
     (SELECT GREATEST(reltuples, 0)::float8 FROM pg_class WHERE oid = '"Chunk"'::regclass) AS total
     FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $${k}))) AS l`,
    [...scope.params, words],
  )
  if (counts.length === 0 || counts.every(c => c.n === 0)) return []
  const present = counts.filter(c => c.n > 0)
  // the table's estimated size (as of its last ANALYZE) stands for the searched chunks: IDF needs only its order
  const total = Math.max(counts[0].total, ...counts.map(c => c.n))
  const idf = present.map(c => inverseDocumentFrequency(c.n, total))
  // strip(): the lexemes without positions, decompressed once per candidate for the IDF sum
  const rows = await sql.transaction(async tx => {
    await tx.exec('SET LOCAL enable_seqscan = off')
    return tx.query<{ id: string }>(
      `SELECT candidate.id FROM (
         SELECT c.id, c.tsv, strip(c.tsv) AS words FROM "Chunk" c
         WHERE c.tsv @@ $${k}::tsquery AND ${scope.clause} LIMIT ${FULLTEXT_CANDIDATE_BUDGET}
       ) AS candidate
       ORDER BY (
         SELECT COALESCE(sum(w.idf), 0) FROM unnest($${k + 1}::text[], $${k + 2}::float8[]) AS w(lexeme, idf)
         WHERE candidate.words @@ ${lexemeAsTsquery('w.lexeme')}
       ) + ts_rank_cd(candidate.tsv, $${k + 3}::tsquery, 32) DESC, candidate.id
       LIMIT ${pool}`,
      [...scope.params, candidateQuery(counts), present.map(c => c.lexeme), idf, lexemeQuery(present.map(c => c.lexeme), '|')],
    )
  })
  return rows.map(r => r.id)
}
