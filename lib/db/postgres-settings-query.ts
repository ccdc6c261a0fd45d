import pg, { type ClientBase, type QueryConfig, type QueryResult } from 'pg'

// A statement under settings that last only for it (`SET LOCAL …`, lib/db/sql-driver.ts queryWithSettings), sent to
// PostgreSQL as one exchange: [Parse of the statement, when not prepared on this connection yet], BEGIN, the settings,
// Bind/Describe/Execute of the statement, COMMIT, then one Sync, in one write. node-postgres waits for each query's
// ReadyForQuery before it sends the next, so BEGIN and the settings, the statement and COMMIT were three round trips
// (issue 28: on PostgreSQL, node-postgres's socket writes were three quarters of the web process's `writev`, itself a
// quarter of its CPU under bench:load: each write wakes the server, and on loopback its TCP work is charged to the
// writer). The same shape as the embedded database's thread (lib/db/pglite-thread-source.ts settingsQuery).
//
// A failing message makes PostgreSQL skip to the Sync: the caller then finds the explicit transaction failed (or none
// open, when the statement's Parse failed before BEGIN) and rolls it back. The Parse comes first so that the
// ParseComplete node-postgres records against the statement's name is the statement's own.

/** node-postgres's connection, as its own Query drives it (pg-cursor drives it the same way). */
interface Connection {
  parse(message: { text: string; name?: string; types?: unknown }): void
  bind(message: { statement?: string; values?: unknown[]; valueMapper?: unknown; binary?: boolean }): void
  describe(message: { type: 'P'; name: string }): void
  execute(message: { portal?: string; rows?: number }): void
  sync(): void
  stream: { cork?(): void; uncork?(): void }
  submittedNamedStatements: Record<string, string>
}

interface QueryInternals {
  text: string
  name?: string
  types?: unknown
  values?: unknown[]
  binary?: boolean
  hasBeenParsed(connection: Connection): boolean
}

const utils = (pg as unknown as { utils: { prepareValue: unknown } }).utils

/** A node-postgres query whose submit sends every message at once (the stream corked), with one Sync. */
function settingsQuery(settings: string[], config: QueryConfig, callback: (error: Error | undefined, results: QueryResult[]) => void): pg.Query {
  const query = new pg.Query(config, callback as never)
  const self = query as unknown as QueryInternals
  const submit = (connection: Connection) => {
    connection.stream.cork?.()
    try {
      const parse = () => connection.parse({ text: self.text, name: self.name, types: self.types })
      // a named statement first (see above); an unnamed one just before its Bind, as each Parse of BEGIN, the settings
      // and COMMIT replaces the unnamed statement
      if (self.name && !self.hasBeenParsed(connection)) {
        parse()
        connection.submittedNamedStatements[self.name] = self.text
      }
      const utility = (text: string) => { connection.parse({ text }); connection.bind({}); connection.execute({}) }
      utility('BEGIN')
      for (const setting of settings) utility(setting)
      if (!self.name) parse()
      connection.bind({ statement: self.name, values: self.values, valueMapper: utils.prepareValue, binary: self.binary })
      connection.describe({ type: 'P', name: '' })
      connection.execute({})
      utility('COMMIT')
      connection.sync()
    } finally {
      connection.stream.uncork?.()
    }
    return null
  }
  Object.assign(query, { submit })
  return query
}

/** `SET LOCAL a = 1; SET LOCAL b = 2;` as its statements (one a Parse: the extended protocol takes one at a time). */
export function settingStatements(settings: string): string[] {
  return settings.split(';').map(s => s.trim()).filter(Boolean)
}

/** Runs `query` under `settings` on `client` in one exchange; its rows, or the error (the transaction then to roll back). */
export function querySettingsAtOnce(client: ClientBase, settings: string[], query: QueryConfig): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const submitted = settingsQuery(settings, query, (error, results) => {
      if (error) return reject(error)
      // BEGIN, each setting, the statement, COMMIT: a result each
      resolve(results[1 + settings.length])
    })
    void client.query(submitted as never)
  })
}
