import type { Database } from './client'

// Fixed numbers, one per start-up step that must run in one process at a time on a shared Postgres.
export const LOCKS = { migrations: 72_707_369, firstAdmin: 72_707_370 } as const

/**
 * Runs `fn` while this process holds the Postgres advisory lock `id` (held by a transaction on a connection of its
 * own, so `fn` may use Prisma freely; it needs a second connection of the pool). Processes starting together on one
 * database run `fn` one after the other, each seeing what the previous committed. With the embedded database only
 * this process may open DATA_DIR, so `fn` simply runs.
 */
export async function withAdvisoryLock<T>(db: Database, id: number, fn: () => Promise<T>): Promise<T> {
  if (db.kind !== 'postgres') return fn()
  return db.sql.transaction(async tx => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [id])
    return fn()
  })
}
