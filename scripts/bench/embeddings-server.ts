// An OpenAI-compatible embeddings server for the benchmarks, answering at once so the figures measure this service,
// not a model. Vectors are "feature hashing" of the content words: each word adds ±1 on 16 pseudo-random dimensions,
// then the sum is normalised. Texts sharing words are close (like real embeddings, loosely); the benchmark corpus
// (datastore-support.ts) gives each topic its own words, so chunks form clusters as real embeddings do. An orthogonal
// transform (random signs, Walsh–Hadamard per block of 512) then makes every vector dense, cosines unchanged.
//
// Run alone: `node --import tsx scripts/bench/embeddings-server.ts` prints {"port":N} and serves on 127.0.0.1.
import http from 'node:http'
import { pathToFileURL } from 'node:url'

const HASHES_PER_WORD = 16
// Like a real embeddings model, the meaning is carried by content words, not by these
const STOP_WORDS = new Set('the of and to in is for with on that by as at from this are be or an how does relate what which a'.split(' '))
const wordCache = new Map<string, Int32Array>()

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** The word's signed dimensions (index + 1, negative for -1), for `dimensions`. */
function wordFeatures(word: string, dimensions: number): Int32Array {
  const key = `${dimensions}:${word}`
  let features = wordCache.get(key)
  if (!features) {
    features = new Int32Array(HASHES_PER_WORD)
    let state = fnv1a(word) || 1
    for (let i = 0; i < HASHES_PER_WORD; i++) {
      // xorshift32
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      const r = state >>> 0
      features[i] = ((r % dimensions) + 1) * (r & 0x80000000 ? -1 : 1)
    }
    if (wordCache.size > 200_000) wordCache.clear()
    wordCache.set(key, features)
  }
  return features
}

// Random signs, then a Walsh–Hadamard transform per block of 512: an orthogonal map, so cosines are unchanged, that
// spreads a sparse sum of word features over every dimension, as a real model's dense vectors are.
const BLOCK = 512
const signCache = new Map<number, Float32Array>()

function randomSigns(dimensions: number): Float32Array {
  let signs = signCache.get(dimensions)
  if (!signs) {
    signs = new Float32Array(dimensions)
    let state = 0x9e3779b9
    for (let i = 0; i < dimensions; i++) {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      signs[i] = state & 1 ? 1 : -1
    }
    signCache.set(dimensions, signs)
  }
  return signs
}

function hadamardInPlace(v: Float32Array, offset: number, size: number) {
  for (let h = 1; h < size; h *= 2) {
    for (let i = offset; i < offset + size; i += h * 2) {
      for (let j = i; j < i + h; j++) {
        const a = v[j]
        const b = v[j + h]
        v[j] = a + b
        v[j + h] = a - b
      }
    }
  }
}

export function benchEmbedding(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions)
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  for (const word of words) {
    if (STOP_WORDS.has(word)) continue
    for (const f of wordFeatures(word, dimensions)) {
      if (f > 0) v[f - 1] += 1
      else v[-f - 1] -= 1
    }
  }
  if (dimensions % BLOCK === 0) {
    const signs = randomSigns(dimensions)
    for (let i = 0; i < dimensions; i++) v[i] *= signs[i]
    for (let offset = 0; offset < dimensions; offset += BLOCK) hadamardInPlace(v, offset, BLOCK)
  }
  let norm = 0
  for (let i = 0; i < dimensions; i++) norm += v[i] * v[i]
  norm = Math.sqrt(norm) || 1
  for (let i = 0; i < dimensions; i++) v[i] /= norm
  return v
}

/** As OpenAI answers: the float32 values' bytes in base64 when asked (`encoding_format: "base64"`), else decimals. */
function encoded(vector: Float32Array, format: string | undefined): string | number[] {
  if (format === 'base64') return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
  return Array.from(vector, x => Math.round(x * 1e6) / 1e6)
}

const LATENCY_MS = Number(process.env.BENCH_EMBEDDINGS_LATENCY_MS ?? 0)

export function startBenchEmbeddingsServer(port = 0): Promise<{ url: string; close(): Promise<void> }> {
  let requests = 0
  const server = http.createServer(async (req, res) => {
    const parts: Buffer[] = []
    for await (const part of req) parts.push(part as Buffer)
    if (req.url?.endsWith('/embeddings') && req.method === 'POST') {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as { input: string | string[]; dimensions?: number; model?: string; encoding_format?: string }
      const inputs = Array.isArray(body.input) ? body.input : [body.input]
      const dimensions = body.dimensions ?? 1536
      requests++
      const data = inputs.map((input, index) => ({
        object: 'embedding',
        index,
        embedding: encoded(benchEmbedding(String(input), dimensions), body.encoding_format),
      }))
      // BENCH_EMBEDDINGS_LATENCY_MS: answer that much later, as a remote model does (0: at once)
      if (LATENCY_MS > 0) await new Promise(resolve => setTimeout(resolve, LATENCY_MS))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } }))
      return
    }
    if (req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ requests }))
      return
    }
    res.writeHead(404).end()
  })
  server.keepAliveTimeout = 60_000
  return new Promise(resolve =>
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as { port: number }
      resolve({ url: `http://127.0.0.1:${actual}`, close: () => new Promise(r => { server.closeAllConnections(); server.close(() => r()) }) })
    }),
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  startBenchEmbeddingsServer(Number(process.argv[2] ?? 0)).then(({ url }) => {
    console.log(JSON.stringify({ port: Number(new URL(url).port) }))
  })
}
