import type { PGlite } from '@electric-sql/pglite'
import { ThreadedPglite, type PgliteClient } from './pglite-thread'
import type { Pool } from 'pg'

/** The little the migrator and raw-SQL helpers need from either database, below Prisma. */
export interface SqlDriver {
  kind: 'pglite' | 'postgres'
  /** Runs a script of several statements (simple query protocol). */
  exec(sql: string): Promise<void>
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
  /**
   * One statement under settings that last only for it (`SET LOCAL …;` statements), in a transaction of its own. On
   * the embedded database's thread the whole transaction runs there, holding the database for no turn of this event
   * loop (a transaction driven from here waits a turn between statements, and every other statement waits with it).
   */
  queryWithSettings<T = Record<string, unknown>>(settings: string, sql: string, params?: unknown[]): Promise<T[]>
  /** Runs fn on one connection inside BEGIN/COMMIT, rolling back when it throws. */
  transaction<T>(fn: (tx: SqlStatements) => Promise<T>): Promise<T>
  /**
   * The embedded database's single connection: since when a transaction holds it, and when its last statement
   * ended (ms since the epoch). A statement waits for the whole of a running transaction there.
   */
  activity?(): { transactionSince: number | null; lastStatementAt: number }
}

/** PGlite in this thread, or in a thread of its own (lib/db/pglite-thread.ts): the same statements either way. */
/** What runs inside a transaction: statements, on its one connection. */
export type SqlStatements = Pick<SqlDriver, 'kind' | 'exec' | 'query'>

export function pgliteDriver(db: PGlite | PgliteClient): SqlDriver {
  let transactionSince: number | null = null
  let lastStatementAt = Date.now()
  const ended = <T,>(result: T): T => {
    lastStatementAt = Date.now()
    return result
  }
  const driver: SqlDriver = {
    kind: 'pglite',
    exec: async sql => { ended(await db.exec(sql)) },
    query: async <T,>(sql: string, params?: unknown[]) => ended((await db.query<T>(sql, params)).rows),
    queryWithSettings: async <T,>(settings: string, sql: string, params?: unknown[]) =>
      db instanceof ThreadedPglite ? ended((await db.queryWithSettings<T>(settings, sql, params)).rows) : settingsThenQuery<T>(driver, settings, sql, params),
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
  return driver
}

function settingsThenQuery<T>(driver: SqlDriver, settings: string, sql: string, params?: unknown[]): Promise<T[]> {
  return driver.transaction(async tx => {
    await tx.exec(settings)
    return tx.query<T>(sql, params)
  })
}

export function postgresDriver(pool: Pool): SqlDriver {
  const driver: SqlDriver = {
    kind: 'postgres',
    queryWithSettings: (settings, sql, params) => settingsThenQuery(driver, settings, sql, params),
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
  return driver
}
