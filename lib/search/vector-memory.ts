import { parseBytea } from '@/lib/db/bytea'
import { byScore, type HiddenContent, type RankedChunk } from './bm25-scoring'

// A small datastore's embeddings kept in memory beside its BM25 postings (bm25-memory.ts), and the vector ranking
// over them: every embedding of the question's size compared, the nearest by cosine distance first (issue 28). On
// PostgreSQL the vector ranking through the HNSW index was half of the database's CPU a question at 1,000 chunks of
// 64 dimensions (~1–3 ms for a walk that visits most of a small graph anyway) and, with the cosines of the words'
// candidates, two of a question's exchanges with the database; comparing them all here costs ~0.2 ms. Exact, where
// the index is approximate. Kept only while a datastore has at most MAX_SCANNED_FLOATS values of embeddings of a
// size: JavaScript multiplies ~2.5 ns a value on the 2-core test machine (no SIMD), so a scan of that many costs
// ~0.6 ms, about what it saves; beyond, the index's walk (in C, visiting a fraction of a large datastore) is cheaper.
// That is 4,000 chunks of 64 dimensions, 680 of 384, 170 of 1,536.
export const MAX_SCANNED_FLOATS = 262_144

/** A datastore's embeddings of one size. */
export interface DatastoreVectors {
  dimensions: number
  ids: string[]
  positions: Map<string, number>
  datasources: string[]
  generations: Int32Array
  /** Chunk k's embedding: values[k · dimensions … (k + 1) · dimensions], as pgvector stores it (single precision). */
  values: Float32Array
  norms: Float64Array
}

/** A chunk's embedding as read (`vector_send(embedding)`: bytes, or bytea's text); null when it has none. */
export interface VectorRow {
  id: string
  datasourceId: string
  generation: number
  dimensions: number | null
  vector: Uint8Array | string | null
}

/**
 * A datastore's embeddings by size; null for a size of which some chunk's embedding was not read (the datastore then
 * holds more values of that size than a scan should compare: that size ranks with statements).
 */
export function vectorsOf(rows: VectorRow[]): Map<number, DatastoreVectors | null> {
  const bySize = new Map<number, VectorRow[] | null>()
  for (const row of rows) {
    if (row.dimensions === null) continue
    if (!bySize.has(row.dimensions)) bySize.set(row.dimensions, [])
    const same = bySize.get(row.dimensions)
    if (row.vector === null) bySize.set(row.dimensions, null)
    else same?.push(row)
  }
  return new Map([...bySize].map(([d, sized]) => [d, sized && vectorsOfSize(d, sized)]))
}

function vectorsOfSize(dimensions: number, rows: VectorRow[]): DatastoreVectors {
  const values = new Float32Array(rows.length * dimensions)
  const norms = new Float64Array(rows.length)
  rows.forEach((row, k) => {
    const bytes = typeof row.vector === 'string' ? parseBytea(row.vector) : row.vector!
    // pgvector's binary form: int16 dimensions, int16 unused, then float4 big-endian values
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    let norm = 0
    for (let j = 0; j < dimensions; j++) {
      const v = view.getFloat32(4 + 4 * j, false)
      values[k * dimensions + j] = v
      norm += v * v
    }
    norms[k] = Math.sqrt(norm)
  })
  return {
    dimensions,
    ids: rows.map(r => r.id),
    positions: new Map(rows.map((r, k) => [r.id, k])),
    datasources: rows.map(r => r.datasourceId),
    generations: Int32Array.from(rows, r => r.generation),
    values,
    norms,
  }
}

/** The question's embedding as pgvector receives it (single precision), with its norm. */
export function queryVector(embedding: number[]): { values: Float64Array; norm: number } {
  const values = Float64Array.from(embedding, Math.fround)
  return { values, norm: Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) }
}

/**
 * Chunk k's cosine similarity to the query, as pgvector's `1 - (a <=> b)`: clamped to [-1, 1]; NaN for an embedding
 * of zeros. In double precision (pgvector sums in single precision): the same to ~1e-7.
 */
export function cosineSimilarity(v: DatastoreVectors, k: number, query: { values: Float64Array; norm: number }): number {
  return similarities(v, query, k, k + 1)[0]
}

/** The cosine similarities of chunks `from` to `to` (excluded): one tight loop, the whole cost of a ranking. */
function similarities(v: DatastoreVectors, query: { values: Float64Array; norm: number }, from = 0, to = v.ids.length): Float64Array {
  const { values, norms, dimensions: d } = v
  const q = query.values
  const out = new Float64Array(to - from)
  for (let k = from, at = from * d; k < to; k++, at += d) {
    let a = 0
    let b = 0
    let j = 0
    for (; j + 1 < d; j += 2) {
      a += values[at + j] * q[j]
      b += values[at + j + 1] * q[j + 1]
    }
    if (j < d) a += values[at + j] * q[j]
    const similarity = (a + b) / (norms[k] * query.norm)
    out[k - from] = similarity > 1 ? 1 : similarity < -1 ? -1 : similarity
  }
  return out
}

/**
 * The `limit` chunks of one datastore nearest to the query by cosine distance, not hidden, best first (ties by chunk
 * id, as the statement's `ORDER BY distance, id COLLATE "C"`), scored by cosine similarity. An embedding of zeros has
 * no distance and is left out.
 */
export function nearestVectors(v: DatastoreVectors, query: { values: Float64Array; norm: number }, hidden: HiddenContent, limit: number): RankedChunk[] {
  const hides = hidden.datasources.size > 0 || hidden.generations.size > 0
  const best: RankedChunk[] = []
  const scores = similarities(v, query)
  for (let k = 0; k < v.ids.length; k++) {
    const score = scores[k]
    if (Number.isNaN(score)) continue
    const last = best.length === limit ? best[limit - 1] : null
    if (last && (score < last.score || (score === last.score && v.ids[k] > last.id))) continue
    if (hides && (hidden.datasources.has(v.datasources[k]) || hidden.generations.has(`${v.datasources[k]} ${v.generations[k]}`))) continue
    const chunk = { id: v.ids[k], score }
    let at = best.length
    while (at > 0 && byScore(chunk, best[at - 1]) < 0) at--
    best.splice(at, 0, chunk)
    if (best.length > limit) best.pop()
  }
  return best
}
