import type { PGlite } from '@electric-sql/pglite'
import { ThreadedPglite, type PgliteClient } from './pglite-thread'
import pg, { type Pool } from 'pg'
import { preparedStatements, type PreparedStatements } from './postgres-prepared'
import { settingStatements } from './postgres-settings-query'

const pgTypes = pg.types

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
   * The embedded database's single connection: since when a transaction holds it, when its last statement ended (ms
   * since the epoch), and how many statements are at it (running or queued; its thread's). A statement waits for the
   * whole of a running transaction there.
   */
  activity?(): { transactionSince: number | null; lastStatementAt: number; statementsAt: number }
}

/**
 * Settings for a statement whose plan is the same whatever its parameters (rows by primary key, an index that must
 * drive it): a prepared one is then planned once. PostgreSQL otherwise plans each run again whenever a plan for the
 * given values looks cheaper than its generic one: for the chunks read by id, planning was half of their time on
 * PostgreSQL under bench:load (pg_stat_statements with track_planning).
 */
export const GENERIC_PLAN = 'SET LOCAL plan_cache_mode = force_generic_plan'

/** The same driver, each statement of `query` under `settings` (queryWithSettings). */
export function underSettings(sql: SqlDriver, settings: string): SqlStatements {
  return { kind: sql.kind, exec: sql.exec, query: (text, params) => sql.queryWithSettings(settings, text, params) }
}

/** PGlite in this thread, or in a thread of its own (lib/db/pglite-thread.ts): the same statements either way. */
/** What runs inside a transaction: statements, on its one connection. */
export type SqlStatements = Pick<SqlDriver, 'kind' | 'exec' | 'query'>

// A `timestamp` column (without time zone) holds UTC digits, as Prisma writes them and as this code writes them
// (toISOString()); node-postgres and PGlite would read them as the server's local time, so that on a server whose
// time zone is not UTC every time read in plain SQL was off by its offset (the inbox's cursor paged forever).
const TIMESTAMP = 1114

/** A `timestamp` as the UTC time it holds; text that is no time (infinity) as it came. */
export function utcTimestamp(text: string): Date | string {
  const time = new Date(`${text.replace(' ', 'T')}Z`)
  return Number.isNaN(time.getTime()) ? text : time
}

const PGLITE_PARSERS = { [TIMESTAMP]: utcTimestamp }
const POSTGRES_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP && format !== 'binary' ? utcTimestamp : pgTypes.getTypeParser(oid, format)) as typeof pgTypes.getTypeParser,
}

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
    query: async <T,>(sql: string, params?: unknown[]) => ended((await db.query<T>(sql, params, { parsers: PGLITE_PARSERS })).rows),
    queryWithSettings: async <T,>(settings: string, sql: string, params?: unknown[]) =>
      db instanceof ThreadedPglite
        ? ended((await db.queryWithSettings<T>(settings, sql, params, { parsers: PGLITE_PARSERS })).rows)
        : settingsThenQuery<T>(driver, settings, sql, params),
    transaction: fn =>
      db.transaction(async tx => {
        transactionSince = Date.now()
        try {
          return await fn({
            kind: 'pglite',
            exec: async sql => { ended(await tx.exec(sql)) },
            query: async <T,>(sql: string, params?: unknown[]) => ended((await tx.query<T>(sql, params, { parsers: PGLITE_PARSERS })).rows),
          })
        } finally {
          transactionSince = null
        }
      }),
    activity: () => ({ transactionSince, lastStatementAt, statementsAt: db instanceof ThreadedPglite ? db.pendingStatements() : 0 }),
  }
  return driver
}

function settingsThenQuery<T>(driver: SqlDriver, settings: string, sql: string, params?: unknown[]): Promise<T[]> {
  return driver.transaction(async tx => {
    await tx.exec(settings)
    return tx.query<T>(sql, params)
  })
}

/**
 * Parameters as node-postgres should send them: a Date as its UTC time (toISOString(), as PGlite sends it).
 * node-postgres writes a Date in the server's local time with its offset, which a `timestamp` column drops: outside UTC
 * every Date written in plain SQL was off by the offset.
 */
const utcParams = (params?: unknown[]) => params?.map(value => (value instanceof Date ? value.toISOString() : value))
const statement = (sql: string, params?: unknown[]) => ({ text: sql, values: utcParams(params), types: POSTGRES_TYPES })

export function postgresDriver(pool: Pool, prepared: PreparedStatements = preparedStatements(true)): SqlDriver {
  return {
    kind: 'postgres',
    // BEGIN, the settings, the statement and COMMIT in one round trip
    queryWithSettings: async <T,>(settings: string, sql: string, params?: unknown[]) => {
      const client = await pool.connect()
      try {
        const { rows } = await prepared.run(client, statement(sql, params), true, settingStatements(settings))
        client.release()
        return rows as T[]
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        client.release(error as Error)
        throw error
      }
    },
    exec: async sql => { await pool.query(sql) },
    query: async <T,>(sql: string, params?: unknown[]) => {
      const client = await pool.connect()
      try {
        const { rows } = await prepared.run(client, statement(sql, params), false)
        client.release()
        return rows as T[]
      } catch (error) {
        // as pool.query does: a connection that failed a statement is not reused
        client.release(error as Error)
        throw error
      }
    },
    transaction: fn => inTransaction(pool, prepared, fn),
  }
}

async function inTransaction<T>(pool: Pool, prepared: PreparedStatements, fn: (tx: SqlStatements) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await fn({
      kind: 'postgres',
      exec: async sql => { await client.query(sql) },
      query: async <R,>(sql: string, params?: unknown[]) => (await prepared.run(client, statement(sql, params), true)).rows as R[],
    })
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}
