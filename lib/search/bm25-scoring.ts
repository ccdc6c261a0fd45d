// What both BM25 rankings share (the statements of fulltext.ts, the postings in memory of bm25-memory.ts): the
// parameters, the question's terms and statistics, and the order of ranked chunks.

// BM25's parameters: term-frequency saturation and length normalisation (the usual values: Lucene, Elasticsearch, bm25s)
export const BM25_K1 = 1.2
export const BM25_B = 0.75

/** A lexeme of the question with its statistics in the searched datastores. */
export interface QueryTerm {
  lexeme: string
  /** Chunks of the searched datastores holding it. */
  df: number
  idf: number
}

export interface TextStatistics {
  terms: QueryTerm[]
  /** Chunks in the searched datastores, and their average BM25 length. */
  chunks: number
  averageLength: number
  /** Lexemes of the question found in no chunk of the searched datastores. */
  missing?: number
  /** The version of each searched datastore's chunks (those with chunks), and what the scope hides (bm25-memory.ts). */
  versions?: Map<string, string>
  hidden?: HiddenContent
}

export interface RankedChunk {
  id: string
  score: number
}

/** What the scope hides of the searched datastores (lib/search/scope.ts): datasources, and datasources' generations. */
export interface HiddenContent {
  datasources: Set<string>
  /** `${datasourceId} ${generation}` */
  generations: Set<string>
}

/** Higher score first, then chunk id (byte order, as COLLATE "C"): the same order on every database. */
export function byScore(a: RankedChunk, b: RankedChunk): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}
