import type { ClientBase, QueryConfig, QueryResult } from 'pg'
import { querySettingsAtOnce } from './postgres-settings-query'

// Named prepared statements on PostgreSQL for the texts that come again, as the embedded database's thread has them
// (lib/db/pglite-thread-prepared.ts). Measured under bench:load (issue 28): unnamed, every statement of a question is
// parsed, analysed and planned again by the server; the vector ranking's planning alone was 1.4 ms, and planning a
// fifth of the server's time a question (pg_stat_statements with track_planning). A name is given to a text on its
// second sighting (BM25's shapes vary with the question's terms; a text seen once is not worth a server-side plan);
// a connection keeps at most MAX_PER_CONNECTION of them, the least recently used deallocated first. Names are fixed
// for the process (one text, one name), so that node-postgres, which remembers per connection which names it parsed,
// never sees a name reused for another text. DATABASE_PREPARED_STATEMENTS=off for a pooler that cannot keep them
// (PgBouncer in transaction mode before 1.21, or without max_prepared_statements).

const MAX_PER_CONNECTION = 200
const MAX_NAMES = 2000
const PREPARE_ON_SIGHTING = 2
const MAX_SIGHTINGS = 5000
// the server refuses a statement prepared before a change of its tables' shape (cached plan must not change result
// type), or no longer knows it: prepared again
const STALE_STATEMENT = new Set(['0A000', '26000'])

/** node-postgres's own record of what a connection has parsed (public on the client, untyped). */
interface ParsedRecord { connection: { parsedStatements: Record<string, string> } }

export interface PreparedStatements {
  /**
   * Runs `query` on `client`, named when its text has come before; with `settings`, under them in a transaction of
   * its own, sent at once (lib/db/postgres-settings-query.ts).
   */
  run(client: ClientBase, query: QueryConfig, inTransaction: boolean, settings?: string[]): Promise<QueryResult>
}

export function preparedStatements(enabled: boolean): PreparedStatements {
  const names = new Map<string, string>()
  const sightings = new Map<string, number>()
  const kept = new WeakMap<ClientBase, Map<string, true>>() // per connection, in order of last use
  let next = 0

  function nameFor(text: string): string | undefined {
    const known = names.get(text)
    if (known || !enabled || names.size >= MAX_NAMES) return known
    const seen = (sightings.get(text) ?? 0) + 1
    if (sightings.size >= MAX_SIGHTINGS) sightings.clear()
    sightings.set(text, seen)
    if (seen < PREPARE_ON_SIGHTING) return undefined
    const name = `ads_${next++}`
    names.set(text, name)
    return name
  }

  async function keep(client: ClientBase, name: string) {
    const onConnection = kept.get(client) ?? new Map<string, true>()
    kept.set(client, onConnection)
    onConnection.delete(name)
    onConnection.set(name, true)
    if (onConnection.size <= MAX_PER_CONNECTION) return
    const [oldest] = onConnection.keys()
    await forget(client, oldest)
  }

  /** Deallocates `name` on the connection (the least recently used there); node-postgres's record goes with it. */
  async function forget(client: ClientBase, name: string) {
    kept.get(client)?.delete(name)
    const parsed = (client as unknown as ParsedRecord).connection.parsedStatements
    if (!(name in parsed)) return
    try {
      await client.query(`DEALLOCATE "${name}"`)
    } catch (error) {
      if ((error as { code?: string }).code !== '26000') throw error
    }
    delete parsed[name]
  }

  return {
    async run(client, query, inTransaction, settings) {
      const send = (named: QueryConfig) => (settings ? querySettingsAtOnce(client, settings, named) : client.query(named))
      const name = nameFor(query.text)
      if (!name) return send(query)
      await keep(client, name)
      try {
        return await send({ ...query, name })
      } catch (error) {
        if (!STALE_STATEMENT.has((error as { code?: string }).code ?? '')) throw error
        // the text gets a new name, prepared afresh on every connection (the old one is deallocated as the least
        // recently used); within a transaction the error has ended it, so only a statement alone is run again, unnamed
        if (names.get(query.text) === name) names.set(query.text, `ads_${next++}`)
        if (inTransaction || settings) throw error
        return client.query(query)
      }
    },
  }
}
