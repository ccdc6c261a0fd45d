// The agent benchmark's corpus: 10,000 chunks of 300 Zipf-distributed words of a made-up vocabulary, with their (fake)
// embeddings, written in bulk into one datastore of 100 synched datasources. A seeded PRNG makes every run search
// the same corpus.
import type { Database } from '@/lib/db/client'

export const CHUNKS = 10_000
export const DATASOURCES = 100
export const WORDS_PER_CHUNK = 300
const VOCABULARY = 5_000

// A deterministic PRNG (mulberry32), so every run searches the same corpus
function random(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function vocabulary(rand: () => number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'den', 'mar', 'tel', 'qua', 'bri', 'sto', 'fen', 'gal']
  const words = new Set<string>()
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(rand() * 3)
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rand() * syllables.length)]).join(''))
  }
  return [...words]
}

// Zipf-like: word i is drawn with probability ~ 1/(i+1), as in natural text
function zipfSampler(words: string[], rand: () => number) {
  const weights = words.map((_, i) => 1 / (i + 1))
  const cumulative: number[] = []
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0)
  const total = cumulative[cumulative.length - 1]
  return () => {
    const x = rand() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid] < x) lo = mid + 1
      else hi = mid
    }
    return words[lo]
  }
}

/** The corpus's words, for the questions: the PRNG (after the corpus was drawn), the vocabulary, a Zipf draw. */
export interface CorpusWords { rand: () => number; words: string[]; word: () => string }

/** Seeds the datastore (its datasources, then the chunks in statements of 250) and makes its vector index. */
export async function seedCorpus(db: Database, organizationId: string, datastoreId: string, embedText: (text: string, dimensions: number) => number[]): Promise<CorpusWords> {
  const { toVectorLiteral } = await import('@/lib/embeddings/provider')
  const { ensureVectorIndex } = await import('@/lib/db/vector-index')
  const rand = random(42)
  const words = vocabulary(rand)
  const word = zipfSampler(words, rand)
  const datasourceIds: string[] = []
  for (let i = 0; i < DATASOURCES; i++) {
    const ds = await db.prisma.datasource.create({
      data: { organizationId, datastoreId, type: 'text', name: `document-${i}.md`, status: 'synched' },
    })
    datasourceIds.push(ds.id)
  }
  const BATCH = 250
  for (let start = 0; start < CHUNKS; start += BATCH) {
    const values: string[] = []
    const params: unknown[] = []
    for (let i = start; i < Math.min(CHUNKS, start + BATCH); i++) {
      const text = Array.from({ length: WORDS_PER_CHUNK }, word).join(' ')
      const p = params.length
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::vector)`)
      params.push(`bench_chunk_${i}`, organizationId, datastoreId, datasourceIds[i % DATASOURCES], Math.floor(i / DATASOURCES), text, WORDS_PER_CHUNK, toVectorLiteral(embedText(text, 64)))
    }
    await db.sql.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, embedding) VALUES ${values.join(', ')}`,
      params,
    )
  }
  await ensureVectorIndex(db.sql, 64)
  return { rand, words, word }
}
