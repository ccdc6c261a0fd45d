import 'server-only'
import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import pg from 'pg'
import { config, dataDir } from '@/lib/config'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { LOCKS } from './advisory-lock'
import { maintainAfterChunkWrites, startAutoAnalyze } from './auto-analyze'
import { lockDataDir } from './data-dir-lock'
import { applyMigrations } from './migrate'
import { preparedStatements } from './postgres-prepared'
import { pgliteParsers } from './bytea'
import { ThreadedPglite } from './pglite-thread'
import { pgliteDriver, postgresDriver, type SqlDriver } from './sql-driver'

export interface Database {
  kind: 'pglite' | 'postgres'
  prisma: PrismaClient
  /** Raw SQL below Prisma: migrations, pgvector and full-text search, job claiming. */
  sql: SqlDriver
  /** The embedded database's WebAssembly heap: its current size and the most it can grow to (PGlite only). */
  heap?(): { bytes: number; maxBytes: number }
  /** Statements waiting on the embedded database's thread, the running one included (DATABASE_THREAD=on only). */
  pending?(): number
  /** The sync worker wrote chunks: the tables' statistics are looked at again soon (lib/db/auto-analyze.ts). */
  chunksChanged?(): void
  close(): Promise<void>
}

// PGlite's WebAssembly memory grows up to 2 GiB (its Emscripten build's getHeapMax), whatever the machine's RAM
export const PGLITE_HEAP_MAX_BYTES = 2 ** 31

const BYTEA_OID = 17

function heapBytes(client: PGlite | ThreadedPglite): number {
  if (client instanceof ThreadedPglite) return client.heapBytes()
  return (client as unknown as { mod?: { wasmMemory?: WebAssembly.Memory } }).mod?.wasmMemory?.buffer.byteLength ?? 0
}

/**
 * PGlite with pgvector: on disk in `dir`, or in memory when `dir` is undefined (tests). In a thread of its own unless
 * DATABASE_THREAD=off (lib/db/pglite-thread.ts): the database then has a core while the web side uses the other.
 * `fromDump` (in memory only): start from a file of PGlite's dumpDataDir, e.g. a migrated database (the tests'
 * template, tests/global-setup.ts: ~0.8 s instead of ~3 s of initdb and migrations a test file).
 */
export async function openPglite(dir?: string, options: { thread?: boolean; fromDump?: string } = {}): Promise<Database> {
  if (dir && options.fromDump) throw new Error('a dump starts an in-memory database only')
  let unlock = () => {}
  if (dir) {
    unlock = lockDataDir(dir)
    fs.mkdirSync(path.join(dir, 'pgdata'), { recursive: true })
  }
  const dataDir = dir ? path.join(dir, 'pgdata') : undefined
  const threaded = options.thread ?? config().DATABASE_THREAD === 'on'
  const { fromDump } = options
  const open = async () =>
    threaded
      ? await ThreadedPglite.open(dataDir, { statementProfile: config().DATABASE_STATEMENT_PROFILE, fromDump })
      : await PGlite.create(dataDir, { extensions: { vector }, parsers: pgliteParsers, loadDataDir: fromDump ? new Blob([fs.readFileSync(fromDump)]) : undefined })
  try {
    return await embedded(await migrated(open, { onDisk: !!dir }), { onDisk: !!dir, unlock })
  } catch (error) {
    unlock()
    throw error
  }
}

/**
 * The embedded database opened with every migration applied. When this start created the database or migrated it (on
 * disk), it is vacuumed (nothing else vacuums the embedded database, and a migration may have written a table's rows
 * again: their old versions would stay in the table and its indexes for good), then closed and opened again: creating
 * the cluster and running the migrations grow PostgreSQL's WebAssembly memory by ~100 MB that a WebAssembly memory
 * never gives back, and that the server would otherwise keep for good.
 */
async function migrated(open: () => Promise<PGlite | ThreadedPglite>, { onDisk }: { onDisk: boolean }): Promise<PGlite | ThreadedPglite> {
  const client = await open()
  try {
    const applied = await applyMigrations(pgliteDriver(client))
    if (!onDisk || applied.length === 0) return client
    await client.exec('VACUUM')
  } catch (error) {
    await client.close().catch(() => {})
    throw error
  }
  await client.close()
  return open()
}

async function embedded(client: PGlite | ThreadedPglite, { onDisk, unlock }: { onDisk: boolean; unlock: () => void }): Promise<Database> {
  const sql = pgliteDriver(client)
  // A `$n::vector` parameter given as bytes (pgvector's binary form, see lib/ingest/vector-binary.ts) is sent as
  // binary, as node-postgres does for a Buffer: parsing 1536 floats from text costs PGlite ~2.5 ms a vector. So is a
  // `bytea` one (a stored original, lib/db/blob-rows.ts), which PGlite would send as hexadecimal text.
  const [vectorType] = await sql.query<{ oid: number }>(`SELECT 'vector'::regtype::oid AS oid`)
  const binary = [vectorType.oid, BYTEA_OID]
  if (client instanceof ThreadedPglite) await client.sendBytesAsBinary(binary)
  else for (const oid of binary) client.serializers[oid] = (value: unknown) => (value instanceof Uint8Array ? value : String(value)) as unknown as string
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client as PGlite) })
  // no autovacuum in the embedded database: its process analyses the tables as autovacuum would (on disk, not tests')
  const maintenance = onDisk ? startAutoAnalyze(sql) : undefined
  const heap = () => ({ bytes: heapBytes(client), maxBytes: PGLITE_HEAP_MAX_BYTES })
  const pending = client instanceof ThreadedPglite ? () => client.pendingStatements() : undefined
  const chunksChanged = maintenance && (() => maintenance.chunksChanged())
  return { kind: 'pglite', prisma, sql, heap, pending, chunksChanged, close: async () => { await maintenance?.stop(); await prisma.$disconnect(); await client.close(); unlock() } }
}

/**
 * PostgreSQL at `url`, with a pool of DATABASE_POOL_SIZE connections (each process, web or worker, has its own pool:
 * processes × pool size must stay under the server's max_connections). A `?schema=name` in the URL (Prisma's
 * convention) puts every table in that schema instead of `public`; pgvector's type still resolves from `public`.
 */
export async function openPostgres(url: string): Promise<Database> {
  const { connectionString, schema } = splitSchema(url)
  const pool = new pg.Pool({
    connectionString,
    max: config().DATABASE_POOL_SIZE,
    application_name: 'agent-datastore-service',
    ...(schema ? { options: `-c search_path="${schema}",public` } : {}),
  })
  const sql = postgresDriver(pool, preparedStatements(config().DATABASE_PREPARED_STATEMENTS === 'on'))
  // under the migrations' lock: processes creating one schema at once would collide in the catalog
  if (schema) await sql.transaction(async tx => { await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.migrations]); await tx.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`) })
  await applyMigrations(sql)
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) })
  const statistics = maintainAfterChunkWrites(sql)
  const chunksChanged = () => statistics.chunksChanged()
  return { kind: 'postgres', prisma, sql, chunksChanged, close: async () => { await statistics.stop(); await prisma.$disconnect(); await pool.end() } }
}

/**
 * The URL without its `schema` parameter, and that schema (a plain identifier, or an error). Only the query is read:
 * libpq's forms for a Unix socket (`postgres://user:secret@/db?host=/var/run/postgresql`, `postgresql:///db?host=…`)
 * have no host, which WHATWG's URL refuses and node-postgres accepts.
 */
export function splitSchema(url: string): { connectionString: string; schema?: string } {
  const query = url.indexOf('?')
  const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1))
  const schema = params.get('schema') ?? undefined
  if (schema === undefined) return { connectionString: url }
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new Error(`DATABASE_URL: schema "${schema}" must be letters, digits and underscores`)
  params.delete('schema')
  const rest = params.toString()
  return { connectionString: url.slice(0, query) + (rest ? `?${rest}` : ''), schema: schema === 'public' ? undefined : schema }
}

// One database per process, on globalThis: under `next start` this module is loaded twice (instrumentation and
// routes) and a second PGlite on the same folder would lose rows. Opened on first use, never at import, so that
// `next build` (which imports route modules) never creates a database.
const holder = globalThis as unknown as { __database?: Promise<Database> }

export function getDatabase(): Promise<Database> {
  if (!holder.__database) {
    const url = config().DATABASE_URL
    holder.__database = url ? openPostgres(url) : openPglite(dataDir())
    holder.__database.catch(() => { holder.__database = undefined })
  }
  return holder.__database
}

export async function getPrisma(): Promise<PrismaClient> {
  return (await getDatabase()).prisma
}

/** Tests: put an already opened database (usually in-memory PGlite) in place of the configured one. */
export function useDatabase(database: Promise<Database> | undefined): void {
  holder.__database = database
}
