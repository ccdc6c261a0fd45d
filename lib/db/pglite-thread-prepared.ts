// Part of the database thread's own code (lib/db/pglite-thread-source.ts, plain JavaScript in a string): the prepared
// statements. Inside a template literal, so a backslash or a backtick here would need escaping.
export const PREPARED_STATEMENTS_SOURCE = `
// Named prepared statements for the texts that come again (Prisma's statements, the app's fixed SQL): PostgreSQL
// parses and analyses each once, and a run is one bind-execute-sync exchange instead of PGlite's six
// (parse, describe, bind, describe, execute, sync) — a quarter of the database's time for a short statement. A text
// seen once (the BM25 ranking inlines its weights) is not prepared. At most MAX_PREPARED are kept, the least recently
// used closed first; one that PostgreSQL no longer accepts (a migration changed its table) is prepared again.
const MAX_PREPARED = 300
const PREPARE_ON_SIGHTING = 2
const STALE_STATEMENT = new Set(['0A000', '26000'])

function preparedStatements(db, serialize, Parser, alone, timed) {
  const statements = new Map() // text → { name, paramTypes, fields }, in order of last use
  const sightings = new Map() // text → times seen, bounded
  let next = 0
  const stream = message => db.execProtocolStream(message, { syncToFs: false })
  const concat = (...parts) => {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const part of parts) { all.set(part, at); at += part.length }
    return all
  }

  function wants(sql) {
    if (statements.has(sql)) return true
    const seen = (sightings.get(sql) || 0) + 1
    if (sightings.size > 5000) sightings.clear()
    sightings.set(sql, seen)
    return seen >= PREPARE_ON_SIGHTING
  }

  async function prepare(sql) {
    const name = 'ads_' + next++
    const described = [...(await stream(serialize.parse({ name, text: sql }))), ...(await stream(serialize.describe({ type: 'S', name })))]
    const parameters = described.find(m => m.name === 'parameterDescription')
    const rows = described.find(m => m.name === 'rowDescription')
    const statement = {
      name,
      paramTypes: parameters ? parameters.dataTypeIDs : [],
      fields: rows ? rows.fields.map(f => ({ name: f.name, dataTypeID: f.dataTypeID })) : [],
    }
    statements.set(sql, statement)
    if (statements.size > MAX_PREPARED) {
      const [oldest, { name: closing }] = statements.entries().next().value
      statements.delete(oldest)
      await stream(serialize.close({ type: 'S', name: closing }))
    }
    return statement
  }

  function statementFor(sql) {
    const statement = statements.get(sql)
    if (!statement) return prepare(sql)
    statements.delete(sql) // to the end: most recently used
    statements.set(sql, statement)
    return statement
  }

  // the parameters as PGlite would send them: its serializer for the type, else the value's text
  function values(statement, params) {
    return params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = db.serializers[statement.paramTypes[i]]
      return serializer ? serializer(value) : value.toString()
    })
  }

  async function execute(sql, params) {
    let statement
    try {
      statement = await statementFor(sql)
    } catch (error) {
      await stream(serialize.sync()) // PostgreSQL skips what comes until a Sync after a failed Parse
      throw error
    }
    return resultOf(statement, await wireRun(db, wireBindExecute(statement.name, values(statement, params), true)))
  }

  // BEGIN, the settings, the statement and COMMIT in one exchange with PostgreSQL: a transaction of its own, four
  // round trips through PGlite's protocol in one (a third of a short statement's time there). PostgreSQL reads the
  // messages in order: an error in the statement skips to its Sync, and the COMMIT then ends the failed transaction.
  const began = new Map() // settings → the BEGIN message, bounded
  const COMMIT = serialize.query('COMMIT')
  async function executeWithSettings(settings, sql, params) {
    let statement
    try {
      statement = await statementFor(sql)
    } catch (error) {
      await stream(serialize.sync())
      throw error
    }
    if (!began.has(settings)) {
      if (began.size > 100) began.clear()
      began.set(settings, serialize.query('BEGIN; ' + settings))
    }
    const bound = wireBindExecute(statement.name, values(statement, params), true)
    return resultOf(statement, await wireRun(db, concat(began.get(settings), bound, COMMIT)))
  }

  function resultOf(statement, response) {
    const { rows, tags } = wireResult(response, Parser)
    let affectedRows = 0
    let rowCount
    let command
    for (const tag of tags) {
      const words = tag.split(' ')
      command = words[0]
      const count = parseInt(words[words.length - 1], 10)
      if (!Number.isNaN(count)) rowCount = count
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) && !Number.isNaN(count)) affectedRows += count
    }
    return { fields: statement.fields, rows, affectedRows, rowCount, command }
  }

  // PGlite's locks, as its own query takes them: outside a transaction, after any running transaction. With
  // settings, the statement is a transaction of its own (never inside the caller's). They keep PGlite's own
  // exchanges of several steps (a query's parse, describe, bind…) whole, and cost three passes through its awaiter a
  // statement (the transaction's, the query's, then the file system's for syncToFs), a tenth of the thread's time
  // outside PostgreSQL. This thread is PGlite's only user: when no other operation is under way (\`alone()\`: none
  // in flight, no transaction open), a statement already prepared, whose exchange is one synchronous call, needs
  // none of them; and syncToFs does nothing on Node's file systems.
  async function run(sql, params, inTransaction, settings) {
    const work = () => (settings ? executeWithSettings(settings, sql, params) : execute(sql, params))
    const once = () => db._runExclusiveQuery(work)
    const unlocked = !inTransaction && statements.has(sql) && alone()
    const locked = () => (unlocked ? timed(work) : inTransaction ? once() : db._runExclusiveTransaction(once))
    try {
      const result = await locked()
      if (!inTransaction && !unlocked) await db.syncToFs()
      return result
    } catch (error) {
      if (!(error instanceof DatabaseError) || !STALE_STATEMENT.has(error.code) || !statements.has(sql)) throw error
      statements.delete(sql)
      return locked()
    }
  }

  return { wants, run }
}
`
