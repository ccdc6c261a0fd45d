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
}

export function pgliteDriver(db: PGlite): SqlDriver {
  return {
    kind: 'pglite',
    exec: async sql => { await db.exec(sql) },
    query: async <T,>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
    transaction: fn =>
      db.transaction(tx =>
        fn({
          kind: 'pglite',
          exec: async sql => { await tx.exec(sql) },
          query: async <T,>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
        }),
      ),
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
