// Shared by the ingest and query benchmarks: a fresh embedded database, a tenant, the local embeddings server (in
// its own process, so its work does not share the database's thread), the route handlers served over loopback
// HTTP, a synthetic corpus, and the machine's description.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { Tiktoken } from 'js-tiktoken/lite'
import cl100kBase from 'js-tiktoken/ranks/cl100k_base'
import { createApiKey } from '@/lib/auth/api-keys'
import { getDatabase, useDatabase, type Database } from '@/lib/db/client'

export interface BenchEnvironment {
  db: Database
  dataDir: string
  organizationId: string
  apiKey: string
  embeddings: { url: string; close(): Promise<void> }
  close(): Promise<void>
}

export const DIMENSIONS = Number(process.env.BENCH_DIMENSIONS ?? 1536)

export function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback
}

/** Starts scripts/bench/embeddings-server.ts in a child process and waits for its port. */
export async function startEmbeddingsProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'embeddings-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find(l => l.startsWith('{'))
      if (line) resolve(JSON.parse(line).port)
    })
    child.on('exit', code => reject(new Error(`embeddings server exited (${code})`)))
  })
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      child.kill()
    },
  }
}

/**
 * BENCH_DATABASE_URL=postgres://… runs the benchmark on PostgreSQL instead, in a new schema of that database (fresh,
 * like the embedded default's new DATA_DIR), dropped afterwards; the figures then sit beside the embedded ones.
 */
function benchDatabaseUrl(): { url?: string; dropSchema: () => Promise<void> } {
  const server = process.env.BENCH_DATABASE_URL
  if (!server) return { dropSchema: async () => {} }
  const url = new URL(server)
  const schema = `bench_${Date.now().toString(36)}`
  url.searchParams.set('schema', schema)
  return {
    url: url.toString(),
    dropSchema: async () => {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: server })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end())
    },
  }
}

/** A new DATA_DIR with PGlite on disk (the embedded default), the embeddings server, and an organization with a key. */
export async function openBenchEnvironment(): Promise<BenchEnvironment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-'))
  const embeddings = await startEmbeddingsProcess()
  const postgres = benchDatabaseUrl()
  if (postgres.url) process.env.DATABASE_URL = postgres.url
  else delete process.env.DATABASE_URL
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    WORKER: 'off',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: embeddings.url,
    EMBEDDINGS_DIMENSIONS: String(DIMENSIONS),
  })
  const started = Date.now()
  const db = await getDatabase()
  console.log(`database (${db.kind}) opened in ${Date.now() - started} ms${postgres.url ? '' : ` at ${dataDir}`}`)
  const org = await db.prisma.organization.create({ data: { name: 'bench' } })
  const { secret } = await createApiKey({ organizationId: org.id, actor: { type: 'user', userId: 'bench' } }, 'bench')
  return {
    db,
    dataDir,
    organizationId: org.id,
    apiKey: secret,
    embeddings,
    close: async () => {
      await embeddings.close()
      await db.close()
      useDatabase(undefined)
      if (!process.env.BENCH_KEEP_DATA) {
        fs.rmSync(dataDir, { recursive: true, force: true })
        await postgres.dropSchema()
      }
    },
  }
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>
export type RouteTable = [pattern: RegExp, names: string[], handler: Handler][]

/**
 * The given route handlers behind a real HTTP server on 127.0.0.1: what `next start` does around them, minus its
 * router. Requests go through sockets, headers and JSON as a client's would.
 */
export async function serveRoutes(table: RouteTable): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const match = table.find(([pattern]) => pattern.test(url.pathname))
    if (!match) {
      res.writeHead(404).end()
      return
    }
    const [pattern, names, handler] = match
    const values = pattern.exec(url.pathname)!.slice(1)
    const parts: Buffer[] = []
    for await (const part of req) parts.push(part as Buffer)
    const body = Buffer.concat(parts)
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    const request = new Request(url, { method: req.method, headers, body: body.length ? body : undefined })
    const response = await handler(request, { params: Promise.resolve(Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(values[i])]))) })
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise(r => { server.closeAllConnections(); server.close(() => r()) }) }
}

// ---- synthetic corpus: English words, topics, seeded ----

/**
 * Lowercase English words that are single tokens of cl100k_base (" house", " river"…): text made of them tokenizes,
 * stems and ranks like English prose, which made-up words would not.
 */
function englishWords(): string[] {
  const encoder = new Tiktoken(cl100kBase)
  const stop = new Set(FUNCTION_WORDS)
  const words = new Set<string>()
  for (let rank = 0; rank < 100_000; rank++) {
    let piece: string
    try {
      piece = encoder.decode([rank])
    } catch {
      continue
    }
    if (/^ [a-z]{4,12}$/.test(piece) && !stop.has(piece.trim())) words.add(piece.trim())
  }
  return [...words].sort()
}

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const FUNCTION_WORDS = 'the of and to in is for with on that by as at from this are be or an how does relate what which'.split(' ')

export class Corpus {
  readonly random: () => number
  readonly general: string[]
  readonly topics: string[][]
  private readonly zipf: number[]

  constructor({ seed = 42, vocabulary = 8000, topics = 300, wordsPerTopic = 40 } = {}) {
    this.random = seededRandom(seed)
    const words = englishWords()
    // a seeded shuffle: the general vocabulary, then each topic's own words
    for (let i = words.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1))
      ;[words[i], words[j]] = [words[j], words[i]]
    }
    if (words.length < vocabulary + topics * wordsPerTopic) throw new Error('not enough words for this corpus')
    this.general = words.slice(0, vocabulary)
    this.topics = Array.from({ length: topics }, (_, t) => words.slice(vocabulary + t * wordsPerTopic, vocabulary + (t + 1) * wordsPerTopic))
    // cumulative Zipf weights over the general vocabulary
    let sum = 0
    this.zipf = this.general.map((_, rank) => (sum += 1 / (rank + 1)))
  }

  pick<T>(items: T[]): T {
    return items[Math.floor(this.random() * items.length)]
  }

  generalWord(minRank = 0): string {
    const total = this.zipf[this.zipf.length - 1]
    const lower = minRank ? this.zipf[minRank - 1] : 0
    const x = lower + this.random() * (total - lower)
    let lo = minRank
    let hi = this.zipf.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.zipf[mid] < x) lo = mid + 1
      else hi = mid
    }
    return this.general[lo]
  }

  /**
   * About `words` words on `topic`: half from the topic's own words, the rest function words and words of the
   * general vocabulary, in sentences of 8 to 20 words and paragraphs of 3 to 6 sentences.
   */
  text(topic: number, words: number): string {
    const paragraphs: string[] = []
    let count = 0
    while (count < words) {
      const sentences: string[] = []
      const n = 3 + Math.floor(this.random() * 4)
      for (let s = 0; s < n && count < words; s++) {
        const len = 8 + Math.floor(this.random() * 13)
        const w: string[] = []
        for (let i = 0; i < len; i++) {
          const r = this.random()
          w.push(r < 0.5 ? this.pick(this.topics[topic]) : r < 0.65 ? this.pick(FUNCTION_WORDS) : this.pick(this.general))
        }
        count += len
        sentences.push(`${w[0][0].toUpperCase()}${w[0].slice(1)} ${w.slice(1).join(' ')}.`)
      }
      paragraphs.push(sentences.join(' '))
    }
    return paragraphs.join('\n\n')
  }

  /** A question-like query: a few words of one topic and a less common general word. */
  query(topic: number): string {
    const n = 2 + Math.floor(this.random() * 3)
    const words = Array.from({ length: n }, () => this.pick(this.topics[topic]))
    return `how does ${words.join(' ')} relate to ${this.generalWord(50)}`
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]
}

export function machine(): string {
  const cpus = os.cpus()
  return `${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`
}

export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits
