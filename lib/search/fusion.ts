import type { RankedChunk } from './fulltext'

// Weight of the full-text ranking in the fused score; the vector ranking has the rest
export const TEXT_WEIGHT = 0.5

/** Each score over the ranking's best: BM25's own minimum is 0, so the best chunk gets 1 and the scale is kept. */
function overBest(ranking: RankedChunk[]): Map<string, number> {
  const best = ranking[0]?.score ?? 0
  return new Map(ranking.map(r => [r.id, best > 0 ? r.score / best : 1]))
}

/** Min-max over the pool: cosine similarities of one model cluster in a narrow band that differs between models. */
function minMax(ranking: RankedChunk[]): Map<string, number> {
  const scores = ranking.map(r => r.score)
  const [low, high] = [Math.min(...scores), Math.max(...scores)]
  return new Map(ranking.map(r => [r.id, high > low ? (r.score - low) / (high - low) : 1]))
}

/**
 * Fusion of the full-text (BM25) and vector (cosine) rankings by a convex combination of their normalised scores:
 * TEXT_WEIGHT · bm25 / best bm25 + (1 - TEXT_WEIGHT) · min-max(cosine), a chunk absent from a ranking counting 0
 * there (hybridSearch completes both rankings first, so absent means a score of 0: no word of the question, or no
 * embedding) (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023: it beats
 * reciprocal rank fusion, which throws the scores away). Unlike rank fusion, a chunk far ahead by words stays ahead
 * of one ranked moderately well by both (tests/search-fusion.test.ts: multi-chunk documents). Without a vector
 * ranking, the BM25 ranking alone. Scores are in [0, 1], 1 for first place in both; rounded to 6 decimals.
 */
export function fuseRankings(text: RankedChunk[], vector: RankedChunk[] | null, topK: number): RankedChunk[] {
  const words = overBest(text)
  const meaning = vector ? minMax(vector) : null
  const ids = new Set([...text.map(r => r.id), ...(vector ?? []).map(r => r.id)])
  const fused = [...ids].map(id => {
    const w = words.get(id) ?? 0
    const score = meaning ? TEXT_WEIGHT * w + (1 - TEXT_WEIGHT) * (meaning.get(id) ?? 0) : w
    return { id, score: Math.round(score * 1e6) / 1e6 }
  })
  // a stable sort: equal scores keep the full-text ranking's order, then the vector ranking's (both deterministic)
  return fused.sort((a, b) => b.score - a.score).slice(0, topK)
}
