import type { RankedChunk } from './fulltext'
import { TEXT_WEIGHT } from './fusion'
import type { Fragment } from './types'

// The relevance score of a fragment (README "Scores"): unlike the fused score, which orders the chunks of one query
// (the best is always 1), it means the same for every query, so that a floor (`minScore`) can be set once.
//   words:   BM25 over the question's BM25 ceiling (fulltext.ts bm25Ceiling: a chunk of average length holding each
//            of its words once; a word found nowhere counts as the rarest), capped at 1. A chunk that holds the
//            question's rare words scores high, one holding only its common words low; a question of unknown words 0.
//   meaning: the cosine similarity of the question's and the chunk's embeddings, below 0 counted 0.
// Hybrid: TEXT_WEIGHT · words + (1 − TEXT_WEIGHT) · meaning, each candidate scored on both (hybrid-search.ts); without
// embeddings, words alone. In [0, 1], rounded to 4 decimals. A reranker's relevance_score replaces it (rerank.ts).

/**
 * The fused chunks with their calibrated relevance, best first: fusion chooses which chunks make the cut, their
 * relevance orders them (a stable sort: equal scores keep the fused order), so that scores read best first and a
 * floor cuts the end of the list. Without embeddings the order is the BM25 order either way.
 */
export function relevanceScores(
  fused: RankedChunk[],
  words: { ranking: RankedChunk[]; ceiling: number },
  meaning: RankedChunk[] | null,
): RankedChunk[] {
  const bm25 = new Map(words.ranking.map(r => [r.id, r.score]))
  const cosine = meaning ? new Map(meaning.map(r => [r.id, r.score])) : null
  return fused.map(({ id }) => {
    const w = words.ceiling > 0 ? Math.min(1, (bm25.get(id) ?? 0) / words.ceiling) : 0
    const score = cosine ? TEXT_WEIGHT * w + (1 - TEXT_WEIGHT) * Math.max(0, cosine.get(id) ?? 0) : w
    return { id, score: Math.round(score * 1e4) / 1e4 }
  }).sort((a, b) => b.score - a.score)
}

/** The fragments at or above the floor (all of them without one), and the best score before it (null: none). */
export function applyFloor(fragments: Fragment[], minScore: number | null | undefined): { fragments: Fragment[]; topScore: number | null } {
  const topScore = fragments.length > 0 ? Math.max(...fragments.map(f => f.score)) : null
  if (minScore === null || minScore === undefined || minScore <= 0) return { fragments, topScore }
  return { fragments: fragments.filter(f => f.score >= minScore), topScore }
}
