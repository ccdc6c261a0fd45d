// Shared by the ingest and query benchmarks: a fresh embedded database, a tenant, the local embeddings server (in
// its own process, so its work does not share the database's thread), the route handlers served over loopback
// HTTP, and the machine's description (the synthetic corpus: synthetic-corpus.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { createApiKey } from '@/lib/auth/api-keys'
import { getDatabase, useDatabase, type Database } from '@/lib/db/client'

// the synthetic corpus lives in its own module; exported here too, where the benchmarks (and copies of them run in
// an older tree, by the compares) import it from
export { Corpus, FUNCTION_WORDS, seededRandom } from './synthetic-corpus'

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

/**
 * A new DATA_DIR with PGlite on disk (the embedded default), the embeddings server, and an organization with a key.
 * `embeddings: false`: no OPENAI_API_KEY (full-text mode), set before the settings are first read (with
 * NODE_ENV=production they are read once).
 */
export async function openBenchEnvironment(options: { embeddings?: boolean } = {}): Promise<BenchEnvironment> {
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
  if (options.embeddings === false) delete process.env.OPENAI_API_KEY
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
