import type { PGlite } from '@electric-sql/pglite'
import type { Pool } from 'pg'

/** The little the migrator and raw-SQL helpers need from either database, below Prisma. */
export interface SqlDriver {
  kind: 'pglite' | 'postgres'
  /** Runs a script of several statements (simple query protocol). */
  exec(sql: string): Promise<void>
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /** Runs fn on one connection inside BEGIN/COMMIT, rolling back when it throws. */
  transaction<T>(fn: (tx: Omit<SqlDriver, 'transaction'>) => Promise<T>): Promise<T>
  /**
   * The embedded database's single connection: since when a transaction holds it, and when its last statement
   * ended (ms since the epoch). A statement waits for the whole of a running transaction there.
   */
  activity?(): { transactionSince: number | null; lastStatementAt: number }
}

export function pgliteDriver(db: PGlite): SqlDriver {
  let transactionSince: number | null = null
  let lastStatementAt = Date.now()
  const ended = <T,>(result: T): T => {
    lastStatementAt = Date.now()
    return result
  }
  return {
    kind: 'pglite',
    exec: async sql => { ended(await db.exec(sql)) },
    query: async <T,>(sql: string, params?: unknown[]) => ended((await db.query<T>(sql, params)).rows),
    transaction: fn =>
      db.transaction(async tx => {
        transactionSince = Date.now()
        try {
          return await fn({
            kind: 'pglite',
            exec: async sql => { ended(await tx.exec(sql)) },
            query: async <T,>(sql: string, params?: unknown[]) => ended((await tx.query<T>(sql, params)).rows),
          })
        } finally {
          transactionSince = null
        }
      }),
    activity: () => ({ transactionSince, lastStatementAt }),
  }
}

export function postgresDriver(pool: Pool): SqlDriver {
  return {
    kind: 'postgres',
    exec: async sql => { await pool.query(sql) },
    query: async <T,>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
    transaction: async fn => {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({
          kind: 'postgres',
          exec: async sql => { await client.query(sql) },
          query: async <T,>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
        })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
  }
}
