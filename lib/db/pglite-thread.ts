import { Worker } from 'node:worker_threads'
import { messages, types } from '@electric-sql/pglite'
import { logger } from '@/lib/logger'
import { pgliteParsers } from './bytea'
import { DATABASE_THREAD_SOURCE } from './pglite-thread-source'

type Parser = (text: string, typeId?: number) => unknown
type Parsers = Record<number, Parser>

/** What the Prisma adapter, the SQL driver and the migrator ask of PGlite: queries, scripts and transactions. */
export interface PgliteClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>
  exec(sql: string): Promise<QueryResult<Record<string, unknown>>[]>
  transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T>
}

export interface PgliteTransaction {
  query: PgliteClient['query']
  exec: PgliteClient['exec']
  rollback(): Promise<void>
  readonly closed: boolean
}

interface QueryOptions {
  rowMode?: 'object' | 'array'
  parsers?: Parsers
}

interface QueryResult<T> {
  rows: T[]
  fields: { name: string; dataTypeID: number }[]
  affectedRows?: number
  rowCount?: number
  command?: string
}

interface RawResult extends Omit<QueryResult<unknown>, 'rows'> {
  rows: (string | null)[][]
}

interface Reply {
  id?: number
  result?: unknown
  error?: Record<string, unknown> & { message: string; databaseError?: boolean }
  heapBytes: number
  ready?: boolean
  arrayTypes?: [number, number][]
  modules?: CompiledModules
  compiledHere?: boolean
}

/** PGlite's WebAssembly modules, compiled by the first database thread of this process and given to the next ones. */
interface CompiledModules {
  pgliteWasmModule: WebAssembly.Module
  initdbWasmModule: WebAssembly.Module
}
let compiledModules: CompiledModules | undefined

/**
 * The embedded database in a thread of its own (issue 28): PostgreSQL's WebAssembly, PGlite's protocol and its file
 * system ran on the web server's event loop, half of a question's CPU, so the web side and the database never used
 * both cores. The thread owns the one PGlite; this side sends statements and parses the rows it gets back, with the
 * parsers the caller gives (Prisma's are functions, which cannot cross threads). Statements keep PGlite's order:
 * first sent, first run, a transaction holding the database until it ends.
 */
export class ThreadedPglite implements PgliteClient {
  private pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  private nextId = 1
  private parsers: Parsers = { ...(pgliteParsers as Parsers) }
  private lastHeapBytes = 0
  private failure: Error | undefined
  /** Whether this thread compiled PostgreSQL's WebAssembly itself (the process's first) or was given it. */
  compiledModulesHere = false

  private constructor(private worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply))
    worker.on('error', error => this.fail(error))
    worker.on('exit', code => this.fail(new Error(`the database thread stopped (exit code ${code})`)))
  }

  /** Opens PGlite (with pgvector) in a new thread: on disk in `dataDir`, or in memory when it is undefined. */
  /** `fromDump`: a file of PGlite's dumpDataDir, the in-memory database's start. */
  static async open(dataDir: string | undefined, options: { statementProfile?: string; fromDump?: string } = {}): Promise<ThreadedPglite> {
    const worker = new Worker(DATABASE_THREAD_SOURCE, { eval: true, workerData: { dataDir, statementProfile: options.statementProfile, fromDump: options.fromDump, modules: compiledModules } })
    const ready = await new Promise<Reply>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    if (!ready.ready) {
      await worker.terminate()
      throw databaseError(ready.error ?? { message: 'the database thread did not start' })
    }
    compiledModules ??= ready.modules
    worker.unref() // kept alive by its statements only (call/settle), as in-process PGlite never held a script open
    const client = new ThreadedPglite(worker)
    client.lastHeapBytes = ready.heapBytes
    client.compiledModulesHere = !!ready.compiledHere
    client.useArrayTypes(ready.arrayTypes ?? [])
    return client
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number): Promise<QueryResult<T>> {
    const raw = (await this.call('query', { sql, params, tx })) as RawResult
    return this.parse<T>(raw, options)
  }

  /** `settings` (SET LOCAL statements) then one query, in a transaction run wholly on the database's thread. */
  async queryWithSettings<T = Record<string, unknown>>(settings: string, sql: string, params: unknown[] = [], options?: QueryOptions): Promise<QueryResult<T>> {
    return this.parse<T>((await this.call('settingsQuery', { settings, sql, params })) as RawResult, options)
  }

  async exec(sql: string, tx?: number): Promise<QueryResult<Record<string, unknown>>[]> {
    const raws = (await this.call('exec', { sql, tx })) as RawResult[]
    return raws.map(raw => this.parse<Record<string, unknown>>(raw))
  }

  async transaction<T>(fn: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call('begin', {})) as number
    let closed = false
    const open = () => {
      if (closed) throw new Error('Transaction is closed')
    }
    const tx: PgliteTransaction = {
      query: async (sql, params, options) => (open(), this.query(sql, params, options, id)),
      exec: async sql => (open(), this.exec(sql, id)),
      rollback: async () => {
        open()
        closed = true
        await this.call('rollback', { tx: id })
      },
      get closed() {
        return closed
      },
    }
    try {
      const result = await fn(tx)
      if (!closed) {
        closed = true
        await this.call('commit', { tx: id })
      }
      return result
    } catch (error) {
      if (!closed) {
        closed = true
        await this.call('rollback', { tx: id }).catch(() => {})
      }
      throw error
    }
  }

  /** Parameters of these types given as bytes are sent to PostgreSQL as binary (see lib/db/client.ts). */
  async sendBytesAsBinary(oids: number[]): Promise<void> {
    await this.call('binaryParameters', { oids })
  }

  /** Statements sent to the thread and not answered yet: the one running and those queued behind it. */
  pendingStatements(): number {
    return this.pending.size
  }

  /** The WebAssembly heap's size as of the thread's last answer. */
  heapBytes(): number {
    return this.lastHeapBytes
  }

  async close(): Promise<void> {
    if (!this.failure) await this.call('close', {}).catch(() => {})
    this.failure ??= new Error('the database is closed')
    await this.worker.terminate()
  }

  private call(op: string, args: Record<string, unknown>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref()
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ id, op, ...args })
    })
  }

  private settle(reply: Reply): void {
    this.lastHeapBytes = reply.heapBytes
    const waiter = reply.id === undefined ? undefined : this.pending.get(reply.id)
    if (!waiter) return
    this.pending.delete(reply.id!)
    if (this.pending.size === 0) this.worker.unref()
    if (reply.error) waiter.reject(databaseError(reply.error))
    else waiter.resolve(reply.result)
  }

  private fail(error: Error): void {
    if (this.failure) return
    this.failure = error
    logger.error('The embedded database thread failed: every statement now fails until the server restarts', { error: error.message })
    for (const waiter of this.pending.values()) waiter.reject(error)
    this.pending.clear()
  }

  // PGlite's own array parsing: an array of a type is parsed element by element with that type's parser
  private useArrayTypes(arrayTypes: [number, number][]): void {
    for (const [oid, typarray] of arrayTypes) {
      this.parsers[typarray] = text => types.arrayParser(text, this.parsers[oid], typarray)
    }
  }

  // PGlite's parsing, the caller's parsers first: each field's parser looked up once a result (not the two tables
  // merged a statement, ~200 entries), each row built by a loop
  private parse<T>(raw: RawResult, options?: QueryOptions): QueryResult<T> {
    const { fields } = raw
    const custom = options?.parsers
    const parsers = fields.map(f => custom?.[f.dataTypeID] ?? this.parsers[f.dataTypeID])
    const value = (text: string | null, i: number) => (text === null ? null : parsers[i] ? parsers[i](text, fields[i].dataTypeID) : text)
    const rows: unknown[] = new Array(raw.rows.length)
    for (let r = 0; r < raw.rows.length; r++) {
      const row = raw.rows[r]
      if (options?.rowMode === 'array') {
        for (let i = 0; i < row.length; i++) (row as unknown[])[i] = value(row[i], i)
        rows[r] = row
      } else {
        const object: Record<string, unknown> = {}
        for (let i = 0; i < row.length; i++) object[fields[i].name] = value(row[i], i)
        rows[r] = object
      }
    }
    return { ...raw, rows: rows as T[] }
  }
}

// PGlite's own error class, so that Prisma's adapter maps it as it would in-process (23505 → P2002…)
function databaseError(fields: Record<string, unknown> & { message: string; databaseError?: boolean }): Error {
  const { databaseError: fromDatabase, message, length, name, ...rest } = fields
  if (!fromDatabase) return Object.assign(new Error(message), rest)
  const error = new messages.DatabaseError(message, Number(length ?? 0), (name ?? 'error') as 'error')
  return Object.assign(error, rest)
}
