// `npm run bench -- ingest-profile [--docs N] [--compare DIR]`: where each chunk's CPU goes on the ingest path, on
// real text (BEIR SciFact abstracts, title + text).
//
// One run, in this process, on a FRESH embedded database (PGlite on disk in a new temporary DATA_DIR, as
// `npm run bench:ingest`), with embeddings of 1536 dimensions from scripts/bench/embeddings-server.ts (its own
// process, loopback): an organization and a datastore are created (createDatastore), the documents are upserted in
// batches as a client's requests would reach the service (JSON.parse of the body, parseUpsertBody, upsertDocuments),
// then the worker's drainQueue() runs until every datasource is synched. Measured:
//
// - wall time, chunks/s, and CPU per chunk of each phase: the process (process.cpuUsage, every thread) and its main
//   thread alone (/proc/self/task/<pid>/schedstat), the rest being V8's GC helpers and compilers and libuv's pool;
// - a sampling CPU profile (node:inspector, 1 ms) of each phase; each sample goes to the category of the deepest
//   frame of its stack that has one (a WebAssembly frame goes to its JavaScript caller's owner: PGlite's is
//   PostgreSQL, Prisma's is its query compiler). Categories: see CATEGORIES;
// - the time inside PostgreSQL's main loop per SQL statement (PGlite's execProtocolRawSync, wrapped and timed);
// - a SQL experiment after the drain, on the same database and the same rows: the run's chunks inserted again, as
//   the worker writes them (multi-row INSERTs of 500 rows, binary vectors, one transaction per statement), into
//   fresh copies of the live "Chunk" table (CREATE TABLE … LIKE "Chunk", the indexes and foreign keys read from the
//   catalog) with one more feature each: bare row → + primary key and b-tree indexes → + the generated tsvector →
//   + its GIN index → + the HNSW index → + the foreign keys (= the real table). The differences in CPU are the
//   cost of each, per chunk. Rounds alternate the variants' order (forward, then backward).
//
// Options: --docs N (1500), --batch N (100 documents per upsert), --concurrency N (WORKER_CONCURRENCY, 2),
// --corpus FILE (../shared/data/scifact-train/corpus.jsonl or BENCH_CORPUS), --interval µs (1000), --sql-rounds N
// (2; 0 skips the experiment), --no-profile (neither the CPU profile nor the per-statement counts: the profiler's own
// cost is the difference), --no-embeddings (full-text mode: no embeddings provider), --json FILE (the result, for ingest-compare.ts), --cpuprofile FILE (the drain's profile,
// for DevTools), --label TEXT, --compare DIR [--rounds N] [--balanced] (see ingest-compare.ts).
//
// It uses only what the tree before the ingest refactor (cc0654c) also has, so ingest-compare.ts copies it there.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { Session } from 'node:inspector/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '..', '..')

// ---- options ----

export interface ProfileOptions {
  docs: number
  batch: number
  concurrency?: number
  corpus: string
  intervalUs: number
  /** No CPU profile: to measure the profiler's own cost. */
  noProfile?: boolean
  /** Full-text mode: no embeddings provider (as after `npm ci && npm start` without OPENAI_API_KEY). */
  noEmbeddings?: boolean
  sqlRounds: number
  json?: string
  cpuprofile?: string
  label?: string
}

export function parseArgs(argv: string[]): { options: ProfileOptions; compare?: string; rounds: number; balanced: boolean; rest: string[] } {
  const options: ProfileOptions = {
    docs: 1500,
    batch: 100,
    corpus: process.env.BENCH_CORPUS ?? path.resolve(ROOT, '..', 'shared', 'data', 'scifact-train', 'corpus.jsonl'),
    intervalUs: 1000,
    sqlRounds: 2,
  }
  let compare: string | undefined
  let rounds = 2
  let balanced = false
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${arg} needs a value`)
      return v
    }
    const int = () => {
      const v = Number(value())
      if (!Number.isInteger(v) || v < 0) throw new Error(`${arg} needs a whole number`)
      return v
    }
    switch (arg) {
      case '--docs': options.docs = int(); rest.push(arg, String(options.docs)); break
      case '--batch': options.batch = Math.min(1000, Math.max(1, int())); rest.push(arg, String(options.batch)); break
      case '--concurrency': options.concurrency = Math.max(1, int()); rest.push(arg, String(options.concurrency)); break
      case '--corpus': options.corpus = path.resolve(value()); rest.push(arg, options.corpus); break
      case '--interval': options.intervalUs = Math.max(50, int()); rest.push(arg, String(options.intervalUs)); break
      case '--sql-rounds': options.sqlRounds = int(); rest.push(arg, String(options.sqlRounds)); break
      case '--no-profile': options.noProfile = true; rest.push(arg); break
      case '--no-embeddings': options.noEmbeddings = true; rest.push(arg); break
      case '--json': options.json = path.resolve(value()); break
      case '--cpuprofile': options.cpuprofile = path.resolve(value()); break
      case '--label': options.label = value(); break
      case '--compare': compare = path.resolve(value()); break
      case '--rounds': rounds = Math.max(1, int()); break
      case '--balanced': balanced = true; break
      default: throw new Error(`unknown option ${arg}`)
    }
  }
  return { options, compare, rounds, balanced, rest }
}

// ---- CPU measures ----

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** CPU time in ms of each thread of this process by thread name (Linux; the main thread as "main"), or null. */
function threadCpuMs(): Map<string, number> | null {
  try {
    const out = new Map<string, number>()
    for (const tid of fs.readdirSync('/proc/self/task')) {
      try {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const name = Number(tid) === process.pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).trim()
        out.set(name, (out.get(name) ?? 0) + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS)
      } catch {
        // the thread ended
      }
    }
    return out
  } catch {
    return null
  }
}

/** The main thread's CPU time in ms, to the nanosecond (Linux schedstat), or NaN. */
function mainThreadCpuMs(): number {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return NaN
  }
}

interface CpuMark { wall: number; cpu: NodeJS.CpuUsage; main: number; threads: Map<string, number> | null }
const mark = (): CpuMark => ({ wall: performance.now(), cpu: process.cpuUsage(), main: mainThreadCpuMs(), threads: threadCpuMs() })

export interface PhaseCost {
  wallMs: number
  /** Every thread of the process. */
  cpuMs: number
  userMs: number
  systemMs: number
  mainThreadMs: number
  /** CPU ms by thread name (Linux, /proc/self/task/N/stat; resolution one clock tick, 10 ms); the main thread as "main". */
  threads: Record<string, number>
}

function since(start: CpuMark): PhaseCost {
  const end = mark()
  const cpu = process.cpuUsage(start.cpu)
  return {
    wallMs: end.wall - start.wall,
    cpuMs: (cpu.user + cpu.system) / 1000,
    userMs: cpu.user / 1000,
    systemMs: cpu.system / 1000,
    mainThreadMs: Number.isFinite(end.main - start.main)
      ? end.main - start.main
      : end.threads && start.threads ? (end.threads.get('main') ?? 0) - (start.threads.get('main') ?? 0) : NaN,
    threads: Object.fromEntries(
      [...(end.threads ?? new Map<string, number>())].map(([name, ms]) => [name, ms - (start.threads?.get(name) ?? 0)] as const).filter(([, ms]) => ms > 0),
    ),
  }
}

// ---- CPU profile, attributed to categories ----

export const CATEGORIES = [
  ['load', 'the original: stored (upsert), read and parsed (drain): blob store files, lib/ingest/loaders, unpdf…'],
  ['chunk', 'chunking (lib/ingest/chunker, sections)'],
  ['tokenize', 'tokenize (js-tiktoken, lib/ingest/tokenizer)'],
  ['hash', 'content hash (lib/ingest/content-hash, SHA-256)'],
  ['embed', 'embed request, client side (ai, @ai-sdk, undici/sockets, JSON of the floats, binary vectors)'],
  ['db-wasm', 'database engine: PostgreSQL in WebAssembly (PGlite)'],
  ['db-js', 'database engine: PGlite JavaScript (protocol, row parsing, param serialisation, Emscripten FS)'],
  ['prisma', 'Prisma (lib/generated, @prisma/client runtime and query compiler, pglite-prisma-adapter)'],
  ['sql', 'our SQL layer (lib/db)'],
  ['ingest', 'worker, batching, leases, statement building (other lib/ingest)'],
  ['upsert', 'upsert service, validation (lib/datastores, lib/http, lib/auth, lib/domain)'],
  ['app', 'other app code (other lib/, scripts/)'],
  ['bench', "this benchmark's own measuring (the statement timer)"],
  ['gc', 'garbage collector (main thread)'],
  ['program', 'V8 native, not attributed to a frame ("(program)": compilation, runtime)'],
  ['runtime', 'Node runtime otherwise (promises, timers, fs callbacks)'],
] as const

export type Category = (typeof CATEGORIES)[number][0] | 'idle'

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const PACKAGE_CATEGORIES: [RegExp, Category][] = [
  [/^@electric-sql\/pglite/, 'db-js'],
  [/^(@prisma\/|prisma\/|pglite-prisma-adapter\/)/, 'prisma'],
  [/^js-tiktoken\//, 'tokenize'],
  [/^(ai|@ai-sdk\/[^/]+|@opentelemetry\/api|eventsource-parser)\//, 'embed'],
  [/^(unpdf|pdfjs-dist|mammoth|exceljs|jszip|papaparse|officeparser|cheerio|linkedom|jsdom|@mozilla\/readability)\//, 'load'],
]

const SOURCE_CATEGORIES: [RegExp, Category][] = [
  [/^lib\/generated\//, 'prisma'],
  [/^lib\/ingest\/(loaders\/|sync-document|extract|kinds\/stored-original)|^lib\/db\/blob-store/, 'load'],
  [/^lib\/ingest\/(chunker|sections)/, 'chunk'],
  [/^lib\/ingest\/content-hash/, 'hash'],
  [/^lib\/ingest\/tokenizer/, 'tokenize'],
  [/^lib\/ingest\/(embed|vector-binary)|^lib\/db\/vector-binary|^lib\/(search\/embeddings|embeddings\/)/, 'embed'],
  [/^lib\/db\//, 'sql'],
  [/^lib\/ingest\//, 'ingest'],
  [/^lib\/(datastores|http|auth|domain)\//, 'upsert'],
  [/^(lib|scripts|app)\//, 'app'],
]

// Node's own HTTP client and sockets: in the drain, the only sockets are the embeddings requests'
const NODE_EMBED = /^node:(internal\/deps\/undici|net$|internal\/net|internal\/stream_base_commons|_http|http$|internal\/http)/
// Node's asynchronous file API: in these phases, only the blob store uses it (PGlite's file system is synchronous)
const NODE_FILES = /^node:internal\/fs\/promises/

// This script's own frames: the statement timer is the benchmark's cost, the upsert adapter (a request body's JSON)
// the upsert's; the others (the phases' drivers) decide nothing
const OWN_FRAMES: Record<string, Category> = { benchStatementTimer: 'bench', upsertRequest: 'upsert' }
const OWN_URL = pathToFileURL(fileURLToPath(import.meta.url)).href

/** The category of one frame, or null when the frame has none (Node internals, zod…: the caller decides). */
function frameCategory(url: string, functionName: string): Category | null {
  if (!url) return null
  if (url === OWN_URL || url === fileURLToPath(OWN_URL)) return OWN_FRAMES[functionName] ?? null
  if (url.startsWith('node:')) return NODE_EMBED.test(url) ? 'embed' : NODE_FILES.test(url) ? 'load' : null
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  const modules = file.lastIndexOf('/node_modules/')
  if (modules >= 0) {
    const pkg = file.slice(modules + '/node_modules/'.length)
    return PACKAGE_CATEGORIES.find(([re]) => re.test(pkg))?.[1] ?? null
  }
  const rel = file.startsWith(ROOT + path.sep) ? file.slice(ROOT.length + 1) : file
  return SOURCE_CATEGORIES.find(([re]) => re.test(rel))?.[1] ?? null
}

const isWasmFrame = (f: ProfileNode['callFrame']) => f.url.startsWith('wasm://') || /^(\$|wasm-function|js-to-wasm|wasm-to-js)/.test(f.functionName)

export interface ProfileSummary {
  /** ms per category (idle included), over the whole profile. */
  ms: Record<string, number>
  totalMs: number
  busyMs: number
  /** The functions with the most self time: [category, function, file:line, ms]. */
  top: [string, string, string, number][]
}

export function summarizeProfile(profile: CpuProfile, topN = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map(n => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const cache = new Map<number, Category>()
  const categoryOf = (id: number): Category => {
    const cached = cache.get(id)
    if (cached) return cached
    const leaf = byId.get(id)!
    const special: Record<string, Category> = { '(garbage collector)': 'gc', '(idle)': 'idle', '(program)': 'program', '(root)': 'runtime' }
    let category: Category | undefined = special[leaf.callFrame.functionName]
    if (!category) {
      let sawWasm = false
      for (let n: ProfileNode | undefined = leaf; n; n = byId.get(parent.get(n.id) ?? -1)) {
        if (isWasmFrame(n.callFrame)) {
          sawWasm = true
          continue
        }
        const c = frameCategory(n.callFrame.url, n.callFrame.functionName)
        if (c) {
          category = c === 'db-js' && sawWasm ? 'db-wasm' : c
          break
        }
      }
      category ??= sawWasm ? 'db-wasm' : 'runtime'
    }
    cache.set(id, category)
    return category
  }
  const ms: Record<string, number> = {}
  const self = new Map<number, number>()
  const { samples, timeDeltas } = profile
  for (let i = 0; i < samples.length; i++) {
    // the time until the next sample belongs to this one (as DevTools counts it); the last one is Profiler.stop's
    const d = i + 1 < samples.length ? Math.max(0, timeDeltas[i + 1]) / 1000 : 0
    const c = categoryOf(samples[i])
    ms[c] = (ms[c] ?? 0) + d
    self.set(samples[i], (self.get(samples[i]) ?? 0) + d)
  }
  const totalMs = Object.values(ms).reduce((a, b) => a + b, 0)
  const busyMs = totalMs - (ms.idle ?? 0)
  // self time by function
  const functions = new Map<string, [string, string, string, number]>()
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : ''
    const key = `${functionName}@${where}`
    const entry = functions.get(key) ?? [categoryOf(id), functionName || '(anonymous)', where, 0]
    entry[3] += t
    functions.set(key, entry)
  }
  const top = [...functions.values()].filter(f => f[0] !== 'idle').sort((a, b) => b[3] - a[3]).slice(0, topN)
  return { ms, totalMs, busyMs, top }
}

function shortUrl(url: string): string {
  if (url.startsWith('wasm://')) return 'wasm'
  const file = url.startsWith('file://') ? fileURLToPath(url) : url
  const modules = file.lastIndexOf('/node_modules/')
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length)
  return file.startsWith(ROOT + path.sep) ? file.slice(ROOT.length + 1) : file
}

const EMPTY_PROFILE: CpuProfile = { nodes: [], startTime: 0, endTime: 0, samples: [], timeDeltas: [] }

async function profiled<T>(intervalUs: number | null, fn: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  if (intervalUs === null) return { result: await fn(), profile: EMPTY_PROFILE }
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: intervalUs })
    await session.post('Profiler.start')
    let result: T
    try {
      result = await fn()
    } catch (error) {
      await session.post('Profiler.stop').catch(() => {})
      throw error
    }
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }
    return { result, profile }
  } finally {
    await session.post('Profiler.disable').catch(() => {})
    session.disconnect()
  }
}

// ---- time inside PGlite per SQL statement ----

export interface StatementStat { sql: string; calls: number; ms: number }

interface StatementTimer {
  /** Starts collecting into a new table (undefined: stops). */
  collect(into: Map<string, StatementStat> | undefined): void
}

const decoder = new TextDecoder()

/** The SQL of a frontend message batch: the query of its Parse ('P') or simple Query ('Q') message, if any. */
function statementOf(message: Uint8Array): string | null {
  let offset = 0
  while (offset + 5 <= message.length) {
    const type = message[offset]
    const length = ((message[offset + 1] << 24) | (message[offset + 2] << 16) | (message[offset + 3] << 8) | message[offset + 4]) >>> 0
    const body = message.subarray(offset + 5, offset + 1 + length)
    if (type === 0x51 /* Q */) return decoder.decode(body.subarray(0, Math.max(0, body.indexOf(0))))
    if (type === 0x50 /* P */) {
      const nameEnd = body.indexOf(0)
      const rest = body.subarray(nameEnd + 1)
      return decoder.decode(rest.subarray(0, Math.max(0, rest.indexOf(0))))
    }
    if (length < 4) break
    offset += 1 + length
  }
  return null
}

/** A statement's text made short and stable: placeholders, VALUES lists and Prisma's qualified names folded. */
export function statementKey(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/"public"\./g, '')
    .replace(/"(\w+)"\."(\w+)"/g, '$2')
    .replace(/\$\d+/g, '$')
    .replace(/(\([^()]*\))(, \([^()]*\))+/g, '$1, …')
    .replace(/(\$(::\w+(\[\])?)?, ){3,}/g, '$, …, ')
    .trim()
    .slice(0, 160)
}

/**
 * Wraps PGlite's execProtocolRawSync (PostgreSQL's main loop on one batch of protocol messages, synchronous: the
 * WebAssembly and its calls into the Emscripten file system) to time each call, per statement. The call is
 * synchronous on the main thread, so its wall time is that thread's CPU, plus any time the OS gave another process
 * meanwhile (on a loaded machine). Everything else PGlite does (parsing results into rows, serialising parameters)
 * is outside. Returns null when this PGlite has no such method.
 */
async function timeStatements(): Promise<StatementTimer | null> {
  const { PGlite } = (await import('@electric-sql/pglite')) as unknown as { PGlite: { prototype: Record<string, unknown> } }
  const proto = PGlite.prototype
  const original = proto.execProtocolRawSync as ((this: unknown, message: Uint8Array) => Uint8Array) | undefined
  if (typeof original !== 'function') return null
  let into: Map<string, StatementStat> | undefined
  let last = '(unknown)'
  proto.execProtocolRawSync = function benchStatementTimer(this: unknown, message: Uint8Array) {
    if (!into) return original.call(this, message)
    const sql = statementOf(message)
    if (sql !== null) last = sql ? statementKey(sql) : '(empty)'
    const table = into
    // performance.now(), not process.cpuUsage(): a getrusage call costs ~20 µs here, and a tree making more calls
    // would pay more for the measure itself
    const started = performance.now()
    try {
      return original.call(this, message)
    } finally {
      const entry = table.get(last) ?? { sql: last, calls: 0, ms: 0 }
      entry.calls++
      entry.ms += performance.now() - started
      table.set(last, entry)
    }
  }
  return { collect: table => { into = table } }
}

// ---- the app's code, as either tree has it ----

type Sql = {
  exec(sql: string): Promise<void>
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  transaction<T>(fn: (tx: { query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]> }) => Promise<T>): Promise<T>
}
type Ctx = { organizationId: string; actor: { type: 'user'; userId: string } }

interface App {
  createDatastore(ctx: Ctx, name: string): Promise<string>
  upsert(ctx: Ctx, datastoreId: string, body: string): Promise<number>
  drain(concurrency: number): Promise<number>
  workerConcurrency(): number
}

function pick<T>(module: Record<string, unknown>, names: string[], what: string): T {
  for (const name of names) if (typeof module[name] === 'function') return module[name] as T
  throw new Error(`${what}: none of ${names.join(', ')} is exported here; adapt scripts/bench/ingest-profile.ts to this tree`)
}

/** The service functions a user's requests and the worker reach, looked up by name (the ingest code is being refactored). */
async function loadApp(): Promise<App> {
  const datastores = (await import('@/lib/datastores/datastores')) as Record<string, unknown>
  const upsert = (await import('@/lib/datastores/upsert')) as Record<string, unknown>
  const worker = (await import('@/lib/ingest/worker')) as Record<string, unknown>
  const config = (await import('@/lib/config')) as { config: () => { WORKER_CONCURRENCY: number } }
  const createDatastore = pick<(ctx: Ctx, input: { name: string }) => Promise<{ id: string }>>(datastores, ['createDatastore'], 'lib/datastores/datastores')
  const parseUpsertBody = pick<(body: unknown) => unknown[]>(upsert, ['parseUpsertBody'], 'lib/datastores/upsert')
  const upsertDocuments = pick<(ctx: Ctx, id: string, docs: unknown[]) => Promise<{ ids: string[] }>>(upsert, ['upsertDocuments'], 'lib/datastores/upsert')
  const drainQueue = pick<(o: { concurrency?: number }) => Promise<number>>(worker, ['drainQueue'], 'lib/ingest/worker')
  return {
    createDatastore: async (ctx, name) => (await createDatastore(ctx, { name })).id,
    // what the upsert route does with a request's body, after authentication
    upsert: async function upsertRequest(ctx, id, body) {
      return (await upsertDocuments(ctx, id, parseUpsertBody(JSON.parse(body)))).ids.length
    },
    drain: concurrency => drainQueue({ concurrency }),
    workerConcurrency: () => config.config().WORKER_CONCURRENCY,
  }
}

// ---- the corpus ----

interface Doc { _id: string; title: string; text: string }

function readCorpus(file: string, n: number): Doc[] {
  if (!fs.existsSync(file)) throw new Error(`corpus not found: ${file} (--corpus or BENCH_CORPUS)`)
  const docs: Doc[] = []
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (docs.length >= n) break
    if (!line.trim()) continue
    const d = JSON.parse(line) as Doc
    if ((d.title + d.text).trim()) docs.push(d)
  }
  if (docs.length < n) throw new Error(`the corpus has ${docs.length} documents, fewer than --docs ${n}`)
  return docs
}

// ---- the SQL experiment ----

export interface SqlVariant {
  key: string
  label: string
  attributed: string
  /** Main-thread CPU (PostgreSQL runs there), per round. */
  cpuMs: number[]
  /** Every thread's. */
  processCpuMs: number[]
  wallMs: number[]
}

function vectorBinary(values: number[]): Buffer {
  const buffer = Buffer.allocUnsafe(4 + 4 * values.length)
  buffer.writeInt16BE(values.length, 0)
  buffer.writeInt16BE(0, 2)
  for (let i = 0; i < values.length; i++) buffer.writeFloatBE(values[i], 4 + 4 * i)
  return buffer
}

async function sqlExperiment(sql: Sql, datastoreId: string, rounds: number): Promise<{ rows: number; variants: SqlVariant[]; notes: string[] }> {
  const notes: string[] = []
  const rows = await sql.query<{
    id: string; org: string; ds: string; src: string; position: number; text: string; tokens: number; metadata: string; customId: string | null; embedding: number[] | string | null
  }>(
    `SELECT id, "organizationId" AS org, "datastoreId" AS ds, "datasourceId" AS src, position, text, tokens, metadata::text AS metadata,
            custom_id AS "customId", embedding::real[] AS embedding
       FROM "Chunk" WHERE "datastoreId" = $1 ORDER BY "createdAt", "datasourceId", position`,
    [datastoreId],
  )
  const ROWS_PER_INSERT = 500
  const statements: { text: string; params: unknown[] }[] = []
  const columns = `(id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding)`
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const params: unknown[] = []
    const values: string[] = []
    for (const r of rows.slice(start, start + ROWS_PER_INSERT)) {
      const p = params.length
      const embedding = typeof r.embedding === 'string' ? (JSON.parse(r.embedding.replace(/^\{/, '[').replace(/\}$/, ']')) as number[]) : r.embedding
      params.push(r.id, r.org, r.ds, r.src, r.position, r.text, r.tokens, r.metadata, r.customId, embedding ? vectorBinary(embedding) : null)
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}, $${p + 10}::vector)`)
    }
    statements.push({ text: `${columns} VALUES ${values.join(', ')}`, params })
  }

  // the live table's indexes and foreign keys, from the catalog (the migrations' definitions, whatever they are now)
  const indexes = await sql.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Chunk' ORDER BY indexname`)
  const fkeys = await sql.query<{ def: string }>(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '"Chunk"'::regclass AND contype = 'f' ORDER BY conname`,
  )
  const method = (def: string) => /USING (\w+)/.exec(def)?.[1] ?? 'btree'
  const btree = indexes.filter(i => method(i.indexdef) === 'btree')
  const gin = indexes.filter(i => method(i.indexdef) === 'gin')
  const vector = indexes.filter(i => !['btree', 'gin'].includes(method(i.indexdef)))
  notes.push(`indexes of "Chunk": ${indexes.map(i => `${i.indexname} (${method(i.indexdef)})`).join(', ')}; ${fkeys.length} foreign keys`)
  const onTable = (def: string, table: string, k: number) =>
    def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON (ONLY )?(public\.)?"Chunk"/, (_m, unique) => `CREATE ${unique ?? ''}INDEX "${table}_i${k}" ON "${table}"`)

  // triggers (not the foreign keys' internal ones): BEFORE … FOR EACH ROW ones compute columns (a tsvector computed
  // by a trigger instead of a generated column belongs with "tsvector"), the others do more work per statement or row
  const triggers = await sql.query<{ name: string; def: string; beforeRow: boolean }>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def, (tgtype & 3) = 3 AS "beforeRow"
       FROM pg_trigger WHERE tgrelid = '"Chunk"'::regclass AND NOT tgisinternal AND (tgtype & 4) = 4 ORDER BY tgname`,
  )
  const rowTriggers = triggers.filter(t => t.beforeRow)
  const otherTriggers = triggers.filter(t => !t.beforeRow)
  const [tsvColumn] = await sql.query<{ generated: string }>(
    `SELECT attgenerated::text AS generated FROM pg_attribute WHERE attrelid = '"Chunk"'::regclass AND attname = 'tsv' AND NOT attisdropped`,
  )
  const tsvBy = [
    ...(tsvColumn?.generated === 's' ? ['the generated column'] : []),
    ...rowTriggers.map(t => `BEFORE trigger ${t.name}`),
  ].join(' and ') || 'nothing (no generated column nor BEFORE trigger)'
  if (triggers.length) notes.push(`INSERT triggers of "Chunk": ${triggers.map(t => `${t.name} (${t.beforeRow ? 'before, row' : 'after'})`).join(', ')}`)
  const onTableTrigger = (def: string, table: string, k: number) =>
    def.replace(/^CREATE (CONSTRAINT )?TRIGGER (?:"[^"]+"|\S+) (.*?) ON (?:public\.)?"Chunk" /, (_m, constraint, when) => `CREATE ${constraint ?? ''}TRIGGER "${table}_t${k}" ${when} ON "${table}" `)

  interface Spec { key: string; label: string; attributed: string; generated: boolean; indexes: { indexdef: string }[]; triggers: { def: string }[]; fkeys: boolean }
  const all = [...btree, ...gin, ...vector]
  const specs: Spec[] = [
    { key: 'bare', label: 'bare row: the columns, no index, tsv a plain NULL column', attributed: 'row insert (heap, TOAST, WAL, statement)', generated: false, indexes: [], triggers: [], fkeys: false },
    { key: 'btree', label: '+ primary key and b-tree indexes', attributed: 'primary key and b-tree index inserts', generated: false, indexes: btree, triggers: [], fkeys: false },
    { key: 'tsv', label: `+ the tsvector, as computed by ${tsvBy}`, attributed: 'tsvector (to_tsvector of the text)', generated: true, indexes: btree, triggers: rowTriggers, fkeys: false },
    { key: 'gin', label: '+ GIN index on the tsvector', attributed: 'GIN insert', generated: true, indexes: [...btree, ...gin], triggers: rowTriggers, fkeys: false },
    { key: 'hnsw', label: '+ vector index(es), as the migrations define them', attributed: 'HNSW insert (binary-quantized)', generated: true, indexes: all, triggers: rowTriggers, fkeys: false },
    ...(otherTriggers.length
      ? [{ key: 'triggers', label: `+ the other triggers (${otherTriggers.map(t => t.name).join(', ')})`, attributed: 'other triggers (e.g. search statistics)', generated: true, indexes: all, triggers: triggers, fkeys: false }]
      : []),
    { key: 'fk', label: '+ foreign keys: the real "Chunk" table', attributed: 'foreign-key checks', generated: true, indexes: all, triggers: triggers, fkeys: true },
  ]
  const variants: SqlVariant[] = specs.map(s => ({ key: s.key, label: s.label, attributed: s.attributed, cpuMs: [], processCpuMs: [], wallMs: [] }))
  // untimed: the statements once into a bare copy, so that the first variant timed does not pay for first use
  // (the INSERT's plan and catalog caches, code paths' first run)
  await sql.exec(`DROP TABLE IF EXISTS bench_chunk_warmup; CREATE TABLE bench_chunk_warmup (LIKE "Chunk" INCLUDING DEFAULTS)`)
  for (const s of statements) await sql.transaction(tx => tx.query(`INSERT INTO bench_chunk_warmup ${s.text}`, s.params))
  await sql.exec(`DROP TABLE bench_chunk_warmup`)
  // and a pause, for the drain's garbage collection and compilations on other threads to finish
  await new Promise(resolve => setTimeout(resolve, 1000))
  notes.push("an untimed warm-up insert of the same rows into a bare copy first; CPU is the main thread's, where PostgreSQL runs")
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? specs : [...specs].reverse()
    for (const spec of order) {
      const table = `bench_chunk_${spec.key}`
      await sql.exec(`DROP TABLE IF EXISTS "${table}"`)
      await sql.exec(`CREATE TABLE "${table}" (LIKE "Chunk" INCLUDING DEFAULTS${spec.generated ? ' INCLUDING GENERATED' : ''})`)
      for (const [k, index] of spec.indexes.entries()) await sql.exec(onTable(index.indexdef, table, k))
      for (const [k, trigger] of spec.triggers.entries()) await sql.exec(onTableTrigger(trigger.def, table, k))
      if (spec.fkeys) for (const [k, fk] of fkeys.entries()) await sql.exec(`ALTER TABLE "${table}" ADD CONSTRAINT "${table}_f${k}" ${fk.def}`)
      const start = mark()
      for (const s of statements) await sql.transaction(tx => tx.query(`INSERT INTO "${table}" ${s.text}`, s.params))
      const cost = since(start)
      const v = variants.find(x => x.key === spec.key)!
      v.cpuMs.push(Number.isFinite(cost.mainThreadMs) ? cost.mainThreadMs : cost.cpuMs)
      v.processCpuMs.push(cost.cpuMs)
      v.wallMs.push(cost.wallMs)
      await sql.exec(`DROP TABLE "${table}"`)
    }
  }
  return { rows: rows.length, variants, notes }
}

// ---- one run ----

export interface ProfileResult {
  label: string
  tree: string
  state: string
  machine: string
  nproc: number
  node: string
  load: number[]
  options: ProfileOptions
  docs: number
  chunks: number
  tokens: number
  textMB: number
  concurrency: number
  jobs: number
  dbOpenMs: number
  upsert: PhaseCost & { profile: ProfileSummary; statements: StatementStat[] }
  drain: PhaseCost & { profile: ProfileSummary; statements: StatementStat[] }
  sql?: { rows: number; variants: SqlVariant[]; notes: string[] }
  finishedAt: string
}

const sortStatements = (table: Map<string, StatementStat>) => [...table.values()].sort((a, b) => b.ms - a.ms)

/**
 * The tree's commit and, when its sources differ from it, how many files and a short hash of the difference (the
 * diff and the untracked files' contents under lib, app, prisma and package.json), so runs on the same state can be
 * told apart from runs on a tree edited in between. Read-only git.
 */
export function treeState(dir: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
    const paths = ['lib', 'app', 'prisma', 'package.json']
    const commit = git('rev-parse', '--short', 'HEAD').trim()
    const changed = git('status', '--porcelain', '--', ...paths).split('\n').filter(Boolean).length
    if (!changed) return commit
    const hash = createHash('sha1').update(git('diff', 'HEAD', '--', ...paths))
    for (const file of git('ls-files', '--others', '--exclude-standard', '--', ...paths).split('\n').filter(Boolean).sort()) {
      hash.update(file).update(fs.readFileSync(path.join(dir, file)))
    }
    return `${commit} + ${changed} uncommitted file${changed > 1 ? 's' : ''} in lib/app/prisma (diff ${hash.digest('hex').slice(0, 7)})`
  } catch {
    return 'unknown'
  }
}

export async function profileIngest(options: ProfileOptions): Promise<ProfileResult> {
  // the embedded database (PGlite) is what this measures
  delete process.env.DATABASE_URL
  const documents = readCorpus(options.corpus, options.docs)
  const load = os.loadavg().map(x => Math.round(x * 10) / 10)
  // imported here, not at the top: ingest-compare.ts imports this module without touching the app's code
  const { machine, openBenchEnvironment } = await import('./datastore-support')
  const app = await loadApp()
  const statements = options.noProfile ? null : await timeStatements()
  const upsertStatements = new Map<string, StatementStat>()
  const drainStatements = new Map<string, StatementStat>()
  const opened = performance.now()
  const env = await openBenchEnvironment()
  const dbOpenMs = performance.now() - opened
  // full-text mode: the worker finds no embeddings provider (config() reads the environment again when it changes)
  if (options.noEmbeddings) delete process.env.OPENAI_API_KEY
  try {
    const { sql } = env.db as unknown as { sql: Sql }
    const ctx: Ctx = { organizationId: env.organizationId, actor: { type: 'user', userId: 'bench' } }
    const datastoreId = await app.createDatastore(ctx, 'bench ingest profile')
    const concurrency = options.concurrency ?? app.workerConcurrency()
    // the requests' bodies as a client sends them (its serialisation is the client's CPU, not the service's)
    const bodies: string[] = []
    for (let i = 0; i < documents.length; i += options.batch) {
      bodies.push(
        JSON.stringify({
          documents: documents.slice(i, i + options.batch).map(d => ({
            name: d.title.slice(0, 200) || undefined,
            text: d.title ? `${d.title}\n\n${d.text}` : d.text,
            metadata: { source: `scifact:${d._id}`, custom_id: d._id },
          })),
        }),
      )
    }
    const bytes = documents.reduce((n, d) => n + Buffer.byteLength(d.title) + 2 + Buffer.byteLength(d.text), 0)

    statements?.collect(upsertStatements)
    const upsertStart = mark()
    const upserted = await profiled(options.noProfile ? null : options.intervalUs, async () => {
      let n = 0
      for (const body of bodies) n += await app.upsert(ctx, datastoreId, body)
      return n
    })
    const upsertCost = since(upsertStart)
    statements?.collect(undefined)
    if (upserted.result !== documents.length) throw new Error(`${upserted.result} of ${documents.length} documents upserted`)

    statements?.collect(drainStatements)
    const drainStart = mark()
    const drained = await profiled(options.noProfile ? null : options.intervalUs, () => app.drain(concurrency))
    const drainCost = since(drainStart)
    statements?.collect(undefined)
    if (options.cpuprofile) fs.writeFileSync(options.cpuprofile, JSON.stringify(drained.profile))

    const [counts] = await sql.query<{ synched: number; chunks: number; tokens: number; rows: number }>(
      `SELECT count(*) FILTER (WHERE status = 'synched')::int AS synched, COALESCE(sum("nbChunks"), 0)::int AS chunks,
              COALESCE(sum("nbTokens"), 0)::int AS tokens,
              (SELECT count(*)::int FROM "Chunk" WHERE "datastoreId" = $1 AND (embedding IS NOT NULL) = $2) AS rows
         FROM "Datasource" WHERE "datastoreId" = $1`,
      [datastoreId, !options.noEmbeddings],
    )
    if (counts.synched !== documents.length) throw new Error(`${documents.length - counts.synched} of ${documents.length} datasources did not reach synched`)
    if (counts.rows !== counts.chunks) throw new Error(`${counts.rows} chunk rows ${options.noEmbeddings ? 'without' : 'with'} an embedding for ${counts.chunks} chunks`)

    const sqlResult = options.sqlRounds > 0 ? await sqlExperiment(sql, datastoreId, options.sqlRounds) : undefined
    return {
      label: options.label ?? path.basename(ROOT),
      tree: ROOT,
      state: treeState(ROOT),
      machine: machine(),
      nproc: os.cpus().length,
      node: process.version,
      load,
      options,
      docs: documents.length,
      chunks: counts.chunks,
      tokens: counts.tokens,
      textMB: bytes / 1e6,
      concurrency,
      jobs: drained.result,
      dbOpenMs,
      upsert: { ...upsertCost, profile: summarizeProfile(upserted.profile), statements: sortStatements(upsertStatements) },
      drain: { ...drainCost, profile: summarizeProfile(drained.profile), statements: sortStatements(drainStatements) },
      sql: sqlResult,
      finishedAt: new Date().toISOString(),
    }
  } finally {
    await env.close()
  }
}

// ---- Markdown ----

export const embeddingsOf = (r: ProfileResult) =>
  r.options.noEmbeddings ? 'no embeddings: full-text mode' : '1536-dimension embeddings from the local fake server'

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–')
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/**
 * A phase's main-thread CPU per category: the profile's shares applied to the main thread's measured CPU. The
 * sampler counts wall time while the thread is not idle, which includes time the OS gave other processes; scaling
 * assumes that time fell evenly on the categories. Without /proc (not Linux), the profiled time itself.
 */
export function categoryCpuMs(phase: PhaseCost & { profile: ProfileSummary }, key: string): number {
  const scale = Number.isFinite(phase.mainThreadMs) && phase.profile.busyMs > 0 ? phase.mainThreadMs / phase.profile.busyMs : 1
  return (phase.profile.ms[key] ?? 0) * scale
}

/**
 * The time inside PostgreSQL of the phase's statements that `match`, as CPU: their wall time (synchronous calls on
 * the main thread) scaled like the profile's categories, by the main thread's CPU over its busy wall time, which
 * takes out the time a loaded machine gave other processes meanwhile.
 */
export function statementCpuMs(phase: PhaseCost & { profile: ProfileSummary; statements?: StatementStat[] }, match: (sql: string) => boolean = () => true): number {
  const scale = Number.isFinite(phase.mainThreadMs) && phase.profile.busyMs > 0 ? Math.min(1, phase.mainThreadMs / phase.profile.busyMs) : 1
  return (phase.statements ?? []).filter(x => match(x.sql)).reduce((n, x) => n + x.ms, 0) * scale
}

export function sqlDeltas(result: ProfileResult): { key: string; label: string; attributed: string; cpuPerChunk: number; wallPerChunk: number; deltaCpu: number }[] {
  if (!result.sql) return []
  let previous = 0
  return result.sql.variants.map(v => {
    const cpuPerChunk = mean(v.cpuMs) / result.sql!.rows
    const wallPerChunk = mean(v.wallMs) / result.sql!.rows
    const deltaCpu = cpuPerChunk - previous
    previous = cpuPerChunk
    return { key: v.key, label: v.label, attributed: v.attributed, cpuPerChunk, wallPerChunk, deltaCpu }
  })
}

export function renderRun(r: ProfileResult): string {
  const out: string[] = []
  const perChunk = (ms: number) => ms / r.chunks
  const total = r.upsert.wallMs + r.drain.wallMs
  out.push(`### ${r.label}: measured on ${r.state}`)
  out.push('')
  out.push(
    `${r.docs.toLocaleString('en')} SciFact abstracts (title + text, ${f(r.textMB, 1)} MB) → ${r.chunks.toLocaleString('en')} chunks ` +
      `(${r.tokens.toLocaleString('en')} tokens, ${embeddingsOf(r)}); upserts of ${r.options.batch} documents; drainQueue with ` +
      `${r.concurrency} lanes (${r.jobs} jobs); fresh PGlite DATA_DIR (opened in ${f(r.dbOpenMs / 1000, 1)} s); ` +
      `machine: ${r.machine}; load average at start ${r.load.join(' / ')}; ${r.finishedAt}.`,
  )
  out.push('')
  out.push('| phase | wall | chunks/s | CPU ms/chunk (process) | main thread | other threads | profiled (not idle) |')
  out.push('|---|---|---|---|---|---|---|')
  for (const [name, p] of [['upsert (service, in batches)', r.upsert], ['drain (worker: load, chunk, embed, write)', r.drain]] as const) {
    out.push(
      `| ${name} | ${f(p.wallMs / 1000)} s | ${f(r.chunks / (p.wallMs / 1000), 0)} | ${f(perChunk(p.cpuMs))} | ${f(perChunk(p.mainThreadMs))} | ` +
        `${f(perChunk(p.cpuMs - p.mainThreadMs))} | ${f(perChunk(p.profile.busyMs))} |`,
    )
  }
  out.push(
    `| **upsert → synched** | ${f(total / 1000)} s | **${f(r.chunks / (total / 1000), 0)}** | **${f(perChunk(r.upsert.cpuMs + r.drain.cpuMs))}** | ` +
      `${f(perChunk(r.upsert.mainThreadMs + r.drain.mainThreadMs))} | ${f(perChunk(r.upsert.cpuMs + r.drain.cpuMs - r.upsert.mainThreadMs - r.drain.mainThreadMs))} | ` +
      `${f(perChunk(r.upsert.profile.busyMs + r.drain.profile.busyMs))} |`,
  )
  out.push('')
  out.push(
    'Main-thread CPU by category, ms per chunk (sampling profile: each sample to the deepest categorised frame of its stack; ' +
      "the shares applied to the main thread's measured CPU):",
  )
  out.push('')
  out.push('| category | upsert | drain | drain share |')
  out.push('|---|---|---|---|')
  for (const [key, label] of CATEGORIES) {
    const u = categoryCpuMs(r.upsert, key)
    const d = categoryCpuMs(r.drain, key)
    if (u < 0.5 && d < 0.5) continue
    out.push(`| ${label} | ${f(perChunk(u))} | ${f(perChunk(d))} | ${f((100 * (r.drain.profile.ms[key] ?? 0)) / r.drain.profile.busyMs, 1)} % |`)
  }
  out.push(`| **main thread** | **${f(perChunk(r.upsert.mainThreadMs))}** | **${f(perChunk(r.drain.mainThreadMs))}** | 100 % |`)
  out.push(`| other threads (GC helpers, JIT compilers, libuv's pool) | ${f(perChunk(r.upsert.cpuMs - r.upsert.mainThreadMs))} | ${f(perChunk(r.drain.cpuMs - r.drain.mainThreadMs))} | |`)
  out.push(`| **process** | **${f(perChunk(r.upsert.cpuMs))}** | **${f(perChunk(r.drain.cpuMs))}** | |`)
  out.push(`| *main thread idle, wall (waiting on the embeddings server, files)* | ${f(perChunk(r.upsert.profile.ms.idle ?? 0))} | ${f(perChunk(r.drain.profile.ms.idle ?? 0))} | |`)
  out.push('')
  out.push('Drain: the functions with the most self time (profiled wall time of the busy main thread):')
  out.push('')
  out.push('| category | function | where | ms/chunk |')
  out.push('|---|---|---|---|')
  for (const [category, fn, where, ms] of r.drain.profile.top.slice(0, 12)) out.push(`| ${category} | \`${fn.length > 60 ? `${fn.slice(0, 57)}…` : fn}\` | ${where} | ${f(perChunk(ms), 3)} |`)
  const inEngine = statementCpuMs(r.drain)
  if (inEngine > 0) {
    const wall = r.drain.statements.reduce((n, x) => n + x.ms, 0)
    out.push('')
    out.push(
      `Drain: CPU inside PostgreSQL's main loop per statement (PGlite's synchronous execProtocolRawSync calls timed, scaled by the ` +
        `main thread's CPU over its busy time; ${f(perChunk(inEngine))} ms/chunk in all, ${f(perChunk(wall))} of wall time, ` +
        `${r.drain.statements.reduce((n, x) => n + x.calls, 0).toLocaleString('en')} calls):`,
    )
    out.push('')
    out.push('| statement | protocol calls | ms/chunk |')
    out.push('|---|---|---|')
    for (const st of r.drain.statements.slice(0, 12)) {
      out.push(`| \`${st.sql.replace(/\|/g, '\\|')}\` | ${st.calls} | ${f(perChunk((st.ms * inEngine) / wall), 3)} |`)
    }
  }
  if (r.sql) {
    out.push('')
    out.push(
      `SQL experiment (same database after the drain, the run's ${r.sql.rows.toLocaleString('en')} chunk rows inserted again as the worker writes them, ` +
        `into fresh copies of "Chunk", ${r.options.sqlRounds} round(s), mean; ${r.sql.notes.join('; ')}):`,
    )
    out.push('')
    out.push('| table | CPU ms/chunk (main thread) | wall ms/chunk | difference in CPU | attributed to |')
    out.push('|---|---|---|---|---|')
    for (const d of sqlDeltas(r)) out.push(`| ${d.label} | ${f(d.cpuPerChunk)} | ${f(d.wallPerChunk)} | ${f(d.deltaCpu)} | ${d.attributed} |`)
  }
  return out.join('\n')
}

// ---- entry point ----

export async function run(argv: string[] = process.argv.slice(2)): Promise<void> {
  const { options, compare, rounds, balanced, rest } = parseArgs(argv)
  if (compare) {
    const { compareTrees } = await import('./ingest-compare')
    await compareTrees({ before: compare, after: ROOT, rounds, balanced, args: rest })
    return
  }
  const result = await profileIngest(options)
  if (options.json) fs.writeFileSync(options.json, JSON.stringify(result, null, 1))
  console.log(renderRun(result))
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  run()
    .then(() => process.exit(0))
    .catch(error => {
      console.error(error)
      process.exit(1)
    })
}
