import { BM25_B, BM25_K1, byScore, type HiddenContent, type RankedChunk, type TextStatistics } from './bm25-scoring'

// A datastore's postings (lexeme → the chunks holding it, with its frequency in each) and the BM25 ranking over them
// that reproduces lib/search/fulltext.ts's statements to the bit (bm25-memory.ts keeps them current).

export interface DatastorePostings {
  ids: string[]
  /** Each chunk's index in these arrays. */
  positions: Map<string, number>
  datasources: string[]
  generations: Int32Array
  /** BM25 lengths ("tsvLength"). */
  lengths: Float64Array
  /** Each lexeme's postings: chunks[offsets[t]…offsets[t + 1]] in ascending order, with its frequency in each. */
  terms: Map<string, number>
  offsets: Int32Array
  chunks: Int32Array
  /** The lexeme's frequency in each chunk: its positions in the tsvector (search_term_frequency()). */
  frequencies: Uint16Array
  /** Each chunk's score while a question is ranked; zeros between. */
  scores: Float64Array
}

export interface ChunkRow {
  id: string
  datasourceId: string
  generation: number
  length: number
  /** The tsvector's text ('lexeme':1,5 'other':3). */
  tsv: string
}

/**
 * Each lexeme of a tsvector's text with its number of positions (1 without positions: ts_rank counts one then).
 * PostgreSQL writes a lexeme between quotes, doubling a quote or a backslash in it.
 */
export function tsvectorTerms(tsv: string, visit: (lexeme: string, frequency: number) => void): void {
  const n = tsv.length
  // the first backslash (few lexemes have one): searched again only once passed
  let slash = tsv.indexOf('\\')
  let i = tsv.indexOf("'")
  while (i >= 0 && i < n) {
    let close = tsv.indexOf("'", i + 1)
    let lexeme: string
    if (slash >= 0 && slash <= i) slash = tsv.indexOf('\\', i + 1)
    if (tsv.charCodeAt(close + 1) !== 39 && (slash < 0 || slash > close)) lexeme = tsv.slice(i + 1, close)
    else [lexeme, close] = escapedLexeme(tsv, i + 1)
    i = close + 1
    let frequency = 1
    if (tsv.charCodeAt(i) === 58) while (++i < n && tsv.charCodeAt(i) !== 32) if (tsv.charCodeAt(i) === 44) frequency++
    visit(lexeme, frequency)
    i = tsv.indexOf("'", i)
  }
}

/** A lexeme with doubled quotes or backslashes, from `from` (after its opening quote): it and its closing quote. */
function escapedLexeme(tsv: string, from: number): [string, number] {
  let lexeme = ''
  let i = from
  for (;;) {
    const c = tsv.charCodeAt(i)
    if (c === 39 && tsv.charCodeAt(i + 1) !== 39) return [lexeme, i]
    lexeme += c === 39 || c === 92 ? tsv[i + 1] : tsv[i]
    i += c === 39 || c === 92 ? 2 : 1
  }
}

/** The postings of chunks (each lexeme's chunks in ascending order), built a slice of rows at a time between turns of the event loop. */
export async function postingsOf(rows: ChunkRow[], rowsATurn = 500): Promise<DatastorePostings> {
  const terms = new Map<string, number>()
  const counts: number[] = []
  let found = { term: new Int32Array(1024), chunk: new Int32Array(1024), frequency: new Uint16Array(1024) }
  let n = 0
  for (let k = 0; k < rows.length; k++) {
    if (k > 0 && k % rowsATurn === 0) await new Promise(resolve => setImmediate(resolve))
    tsvectorTerms(rows[k].tsv, (lexeme, frequency) => {
      let t = terms.get(lexeme)
      if (t === undefined) terms.set(lexeme, (t = counts.push(0) - 1))
      counts[t]++
      if (n === found.term.length) found = grown(found)
      ;[found.term[n], found.chunk[n], found.frequency[n]] = [t, k, Math.min(frequency, 65_535)]
      n++
    })
  }
  // a counting sort by term: each term's chunks stay in ascending order
  const offsets = new Int32Array(counts.length + 1)
  for (let t = 0; t < counts.length; t++) offsets[t + 1] = offsets[t] + counts[t]
  const next = offsets.slice(0, counts.length)
  const chunks = new Int32Array(n)
  const frequencies = new Uint16Array(n)
  for (let j = 0; j < n; j++) {
    const at = next[found.term[j]]++
    chunks[at] = found.chunk[j]
    frequencies[at] = found.frequency[j]
  }
  return {
    ids: rows.map(r => r.id),
    positions: new Map(rows.map((r, k) => [r.id, k])),
    datasources: rows.map(r => r.datasourceId),
    generations: Int32Array.from(rows, r => r.generation),
    lengths: Float64Array.from(rows, r => r.length),
    terms,
    offsets,
    chunks,
    frequencies,
    scores: new Float64Array(rows.length),
  }
}

function grown(found: { term: Int32Array; chunk: Int32Array; frequency: Uint16Array }) {
  const size = found.term.length * 2
  const more = { term: new Int32Array(size), chunk: new Int32Array(size), frequency: new Uint16Array(size) }
  more.term.set(found.term)
  more.chunk.set(found.chunk)
  more.frequency.set(found.frequency)
  return more
}

/**
 * The top `limit` chunks of one datastore by BM25 for the question of `stats`, as fulltext.ts's statements score
 * them: a chunk's length normalisation k1 · (1 - b) + k1 · b / average · length in single precision (real), then each
 * term's weight idf · (k1 + 1) (a real) / (1 + normalisation / frequency) and their sum, in the question's term order,
 * in double precision (PostgreSQL's real / integer is real / double precision).
 */
export function rankPostings(p: DatastorePostings, stats: TextStatistics, hidden: HiddenContent, limit: number): RankedChunk[] {
  const a = Math.fround(BM25_K1 * (1 - BM25_B))
  const b = Math.fround((BM25_K1 * BM25_B) / stats.averageLength)
  const { scores } = p
  const touched: number[] = []
  for (const term of stats.terms) {
    const t = p.terms.get(term.lexeme)
    if (t === undefined) continue
    const weight = Math.fround(term.idf * (BM25_K1 + 1))
    for (let j = p.offsets[t]; j < p.offsets[t + 1]; j++) {
      const k = p.chunks[j]
      if (scores[k] === 0) touched.push(k)
      scores[k] += weight / (1 + Math.fround(a + Math.fround(b * p.lengths[k])) / p.frequencies[j])
    }
  }
  const hides = hidden.datasources.size > 0 || hidden.generations.size > 0
  // the best `limit`, best first, kept as the chunks go by (a question touches hundreds, keeps a few)
  const best: RankedChunk[] = []
  for (const k of touched) {
    const score = scores[k]
    scores[k] = 0
    const last = best.length === limit ? best[limit - 1] : null
    if (last && (score < last.score || (score === last.score && p.ids[k] > last.id))) continue
    if (hides && (hidden.datasources.has(p.datasources[k]) || hidden.generations.has(`${p.datasources[k]} ${p.generations[k]}`))) continue
    const chunk = { id: p.ids[k], score }
    let at = best.length
    while (at > 0 && byScore(chunk, best[at - 1]) < 0) at--
    best.splice(at, 0, chunk)
    if (best.length > limit) best.pop()
  }
  return best
}

/** Chunk `k`'s BM25 score for the question of `stats` (0 without any of its terms), as rankPostings scores it. */
export function chunkScore(p: DatastorePostings, k: number, stats: TextStatistics): number {
  const norm = Math.fround(Math.fround(BM25_K1 * (1 - BM25_B)) + Math.fround(Math.fround((BM25_K1 * BM25_B) / stats.averageLength) * p.lengths[k]))
  let score = 0
  for (const term of stats.terms) {
    const t = p.terms.get(term.lexeme)
    const j = t === undefined ? -1 : sortedIndex(p.chunks, p.offsets[t], p.offsets[t + 1] - 1, k)
    if (j >= 0) score += Math.fround(term.idf * (BM25_K1 + 1)) / (1 + norm / p.frequencies[j])
  }
  return score
}

/** Where `k` is in ascending `values` from `low` to `high`, or -1. */
function sortedIndex(values: Int32Array, low: number, high: number, k: number): number {
  while (low <= high) {
    const mid = (low + high) >> 1
    if (values[mid] === k) return mid
    if (values[mid] < k) low = mid + 1
    else high = mid - 1
  }
  return -1
}
