import { logger } from '@/lib/logger'
import type { Database } from './client'

// How much the embedded database (PGlite) holds before it stops being a good place for the data, measured by
// `npm run bench:pglite-ceiling` on a 2-core machine (docs/benchmarks.md, "The embedded ceiling"): not its memory
// (its WebAssembly heap stayed at 226 MB of its 2 GiB from 25,000 to 250,000 chunks: pages live on disk) but its one
// thread, shared by every query and the sync worker: a query's CPU grows with the chunks (after issue 11's query
// changes, hybrid: 30 ms at 5,000, 80 at 100,000, 94 at 150,000, 148 at 250,000; full text 16 → 61 → 72 → 116 ms).
// With embeddings: 250,000, the largest size measured (its p95 is ~400 ms; ~200 ms of CPU a query extrapolates to
// ~345,000); full-text only: 400,000, extrapolated (~200 ms of CPU at ~440,000). Beyond them
// the service keeps working, more and more slowly; PostgreSQL (`npm run migrate-to-postgres`) is the way on.
export const PGLITE_CHUNK_CEILING = { withEmbeddings: 250_000, fullTextOnly: 400_000 } as const
// The warning starts at this share of the ceiling, or of the WebAssembly heap's maximum
export const APPROACHING_SHARE = 0.8

export type CapacityLevel = 'ok' | 'approaching' | 'over'

export interface Capacity {
  database: 'pglite' | 'postgres'
  chunks: number
  /** Chunks the embedded database is measured to hold well; null on PostgreSQL (no such limit). */
  ceiling: number | null
  /** PGlite's WebAssembly heap, bytes, and its maximum. */
  heapBytes?: number
  heapMaxBytes?: number
  level: CapacityLevel
  /** What to do, when level is not 'ok'. */
  message: string | null
}

/** The level of an embedded database holding `chunks` (and `heap` of its WebAssembly memory) against `ceiling`. */
export function capacityLevel(chunks: number, ceiling: number, heap?: { bytes: number; maxBytes: number }): CapacityLevel {
  const heapShare = heap && heap.maxBytes > 0 ? heap.bytes / heap.maxBytes : 0
  if (chunks >= ceiling || heapShare >= 0.95) return 'over'
  if (chunks >= APPROACHING_SHARE * ceiling || heapShare >= APPROACHING_SHARE) return 'approaching'
  return 'ok'
}

export function capacityMessage(level: CapacityLevel, chunks: number, ceiling: number): string | null {
  if (level === 'ok') return null
  const held = `The embedded database holds ${chunks.toLocaleString('en')} chunks`
  const limit = level === 'over' ? `more than the ${ceiling.toLocaleString('en')} it serves well` : `close to the ${ceiling.toLocaleString('en')} it serves well`
  return `${held}, ${limit}: searches and syncs slow down from here. Move to PostgreSQL: npm run migrate-to-postgres -- postgres://…, then start with DATABASE_URL set (README, "Scale").`
}

/** The database's capacity as the dashboard and the health check show it. */
export async function databaseCapacity(db: Database, withEmbeddings: boolean): Promise<Capacity> {
  const [row] = await db.sql.query<{ chunks: string }>(`SELECT COALESCE(sum(chunks), 0)::text AS chunks FROM "DatastoreTextStats"`)
  const chunks = Number(row?.chunks ?? 0)
  if (db.kind === 'postgres') return { database: 'postgres', chunks, ceiling: null, level: 'ok', message: null }
  const ceiling = withEmbeddings ? PGLITE_CHUNK_CEILING.withEmbeddings : PGLITE_CHUNK_CEILING.fullTextOnly
  const heap = db.heap?.()
  const level = capacityLevel(chunks, ceiling, heap)
  return { database: 'pglite', chunks, ceiling, heapBytes: heap?.bytes, heapMaxBytes: heap?.maxBytes, level, message: capacityMessage(level, chunks, ceiling) }
}

/** One warning line in the log when the embedded database approaches its ceiling (at start). */
export async function logCapacity(db: Database, withEmbeddings: boolean): Promise<Capacity> {
  const capacity = await databaseCapacity(db, withEmbeddings)
  if (capacity.level !== 'ok') logger.warn(capacity.message!, { chunks: capacity.chunks, ceiling: capacity.ceiling, level: capacity.level })
  return capacity
}
