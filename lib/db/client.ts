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
import { lockDataDir } from './data-dir-lock'
import { applyMigrations } from './migrate'
import { pgliteDriver, postgresDriver, type SqlDriver } from './sql-driver'

export interface Database {
  kind: 'pglite' | 'postgres'
  prisma: PrismaClient
  /** Raw SQL below Prisma: migrations, pgvector and full-text search, job claiming. */
  sql: SqlDriver
  close(): Promise<void>
}

/** PGlite with pgvector: on disk in `dir`, or in memory when `dir` is undefined (tests). */
export async function openPglite(dir?: string): Promise<Database> {
  if (dir) {
    lockDataDir(dir)
    fs.mkdirSync(path.join(dir, 'pgdata'), { recursive: true })
  }
  const client = await PGlite.create(dir ? path.join(dir, 'pgdata') : undefined, { extensions: { vector } })
  const sql = pgliteDriver(client)
  await applyMigrations(sql)
  // A `$n::vector` parameter given as bytes (pgvector's binary form, see lib/ingest/vector-binary.ts) is sent as
  // binary, as node-postgres does for a Buffer: parsing 1536 floats from text costs PGlite ~2.5 ms a vector.
  const [vectorType] = await sql.query<{ oid: number }>(`SELECT 'vector'::regtype::oid AS oid`)
  client.serializers[vectorType.oid] = (value: unknown) => (value instanceof Uint8Array ? value : String(value)) as unknown as string
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) })
  return { kind: 'pglite', prisma, sql, close: async () => { await prisma.$disconnect(); await client.close() } }
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  const sql = postgresDriver(pool)
  await applyMigrations(sql)
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) })
  return { kind: 'postgres', prisma, sql, close: async () => { await prisma.$disconnect(); await pool.end() } }
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
