// The database thread's own code: plain JavaScript evaluated by node:worker_threads (a file beside this one would not
// survive Next's bundling). PGlite and pgvector are resolved from the working directory, the app's root, as
// `npm start` and the tests run. It owns the one PGlite; lib/db/pglite-thread.ts speaks to it.
//
// Rows go back with every value as the text PostgreSQL sent (the main thread parses them, with the parsers the caller
// asked for: Prisma's are functions, which cannot cross threads). Errors go back as their fields, so that the main
// thread can rebuild PGlite's DatabaseError (Prisma maps its code: P2002 for a unique violation…).
export const DATABASE_THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')

const ERROR_FIELDS = ['message', 'length', 'name', 'severity', 'code', 'detail', 'hint', 'position', 'internalPosition',
  'internalQuery', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'file', 'line', 'routine']

let DatabaseError = class {}

function errorFields(error) {
  const fields = { databaseError: error instanceof DatabaseError }
  for (const key of ERROR_FIELDS) if (error && error[key] !== undefined) fields[key] = error[key]
  if (fields.message === undefined) fields.message = String(error)
  return fields
}

function rawResult(result) {
  return {
    fields: result.fields,
    rows: result.rows,
    affectedRows: result.affectedRows,
    rowCount: result.rowCount,
    command: result.command,
  }
}

async function main() {
  const { PGlite, messages, protocol } = await import('@electric-sql/pglite')
  DatabaseError = messages.DatabaseError
  const { vector } = await import('@electric-sql/pglite-pgvector')
  const db = await PGlite.create(workerData.dataDir, { extensions: { vector } })
  // every value stays the text PostgreSQL sent: parsing is the caller's, on the main thread
  const identity = value => value
  db.parsers = new Proxy({}, { get: () => identity })

  const transactions = new Map()
  let nextTransaction = 1
  const heapBytes = () => (db.mod && db.mod.wasmMemory ? db.mod.wasmMemory.buffer.byteLength : 0)
  const on = tx => (tx ? transactions.get(tx).handle : db)

  const prepared = preparedStatements(db, protocol.serialize)
  const operations = {
    async query({ sql, params, tx }) {
      if (prepared.wants(sql)) return prepared.run(sql, params, tx !== undefined)
      return rawResult(await on(tx).query(sql, params, { rowMode: 'array' }))
    },
    // the whole transaction here: the database is held for no turn of the main thread's event loop
    async settingsQuery({ settings, sql, params }) {
      if (prepared.wants(sql)) return prepared.run(sql, params, false, settings)
      return db.transaction(async handle => {
        await handle.exec(settings)
        return rawResult(await handle.query(sql, params, { rowMode: 'array' }))
      })
    },
    async exec({ sql, tx }) {
      return (await on(tx).exec(sql)).map(rawResult)
    },
    begin() {
      return new Promise((began, failed) => {
        const id = nextTransaction++
        const entry = {}
        entry.finished = new Promise(resolve => { entry.finish = resolve })
        entry.outcome = db.transaction(async handle => {
          entry.handle = handle
          transactions.set(id, entry)
          began(id)
          await entry.finished
        })
        entry.outcome.catch(error => { failed(error) }).finally(() => transactions.delete(id))
      })
    },
    async commit({ tx }) {
      const entry = transactions.get(tx)
      entry.finish()
      await entry.outcome
    },
    async rollback({ tx }) {
      const entry = transactions.get(tx)
      if (!entry) return
      try { await entry.handle.rollback() } finally { entry.finish() }
      await entry.outcome
    },
    async binaryVectors({ oid }) {
      db.serializers[oid] = value => (value instanceof Uint8Array ? value : String(value))
    },
    async close() {
      await db.close()
    },
  }

  parentPort.on('message', async ({ id, op, ...args }) => {
    try {
      const result = await operations[op](args)
      parentPort.postMessage({ id, result, heapBytes: heapBytes() })
    } catch (error) {
      parentPort.postMessage({ id, error: errorFields(error), heapBytes: heapBytes() })
    }
  })
  parentPort.postMessage({ ready: true, arrayTypes: await arrayTypes(db), heapBytes: heapBytes() })
}

// Named prepared statements for the texts that come again (Prisma's statements, the app's fixed SQL): PostgreSQL
// parses and analyses each once, and a run is one bind-execute-sync exchange instead of PGlite's six
// (parse, describe, bind, describe, execute, sync) — a quarter of the database's time for a short statement. A text
// seen once (the BM25 ranking inlines its weights) is not prepared. At most MAX_PREPARED are kept, the least recently
// used closed first; one that PostgreSQL no longer accepts (a migration changed its table) is prepared again.
const MAX_PREPARED = 300
const PREPARE_ON_SIGHTING = 2
const STALE_STATEMENT = new Set(['0A000', '26000'])

function preparedStatements(db, serialize) {
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

  function bound(statement, params) {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = db.serializers[statement.paramTypes[i]]
      return serializer ? serializer(value) : value.toString()
    })
    return concat(serialize.bind({ statement: statement.name, values }), serialize.execute({}))
  }

  async function execute(sql, params) {
    const received = []
    let statement
    try {
      statement = await statementFor(sql)
      received.push(...(await stream(bound(statement, params))))
    } finally {
      received.push(...(await stream(serialize.sync())))
    }
    return resultOf(statement, received)
  }

  // BEGIN, the settings, the statement and COMMIT in one exchange with PostgreSQL: a transaction of its own, four
  // round trips through PGlite's protocol in one (a third of a short statement's time there). PostgreSQL reads the
  // messages in order: an error in the statement skips to its Sync, and the COMMIT then ends the failed transaction.
  async function executeWithSettings(settings, sql, params) {
    let statement
    try {
      statement = await statementFor(sql)
    } catch (error) {
      await stream(serialize.sync()) // PostgreSQL skips what comes until a Sync after a failed Parse
      throw error
    }
    const received = await stream(concat(serialize.query('BEGIN; ' + settings), bound(statement, params), serialize.sync(), serialize.query('COMMIT')))
    const from = received.findIndex(m => m.name === 'bindComplete')
    const to = received.findIndex((m, i) => i > from && m.name === 'readyForQuery')
    return resultOf(statement, received.slice(from + 1, to))
  }

  function resultOf(statement, received) {
    let affectedRows = 0
    let rowCount
    let command
    const rows = []
    for (const message of received) {
      if (message.name === 'dataRow') rows.push(message.fields)
      else if (message.name === 'commandComplete') {
        const words = message.text.split(' ')
        command = words[0]
        const count = parseInt(words[words.length - 1], 10)
        if (!Number.isNaN(count)) rowCount = count
        if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command) && !Number.isNaN(count)) affectedRows += count
      }
    }
    return { fields: statement.fields, rows, affectedRows, rowCount, command }
  }

  // PGlite's locks, as its own query takes them: outside a transaction, after any running transaction. With
  // settings, the statement is a transaction of its own (never inside the caller's).
  async function run(sql, params, inTransaction, settings) {
    const work = () => (settings ? executeWithSettings(settings, sql, params) : execute(sql, params))
    const once = () => db._runExclusiveQuery(work)
    const locked = () => (inTransaction ? once() : db._runExclusiveTransaction(once))
    try {
      const result = await locked()
      if (!inTransaction) await db.syncToFs()
      return result
    } catch (error) {
      if (!(error instanceof DatabaseError) || !STALE_STATEMENT.has(error.code) || !statements.has(sql)) throw error
      statements.delete(sql)
      return locked()
    }
  }

  return { wants, run }
}

// The array types and their element types, as PGlite reads them, so that the main thread parses arrays as PGlite would
async function arrayTypes(db) {
  const { rows } = await db.query(
    "SELECT b.oid, b.typarray FROM pg_catalog.pg_type a LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem " +
    "WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid", [], { rowMode: 'array' })
  return rows.map(([oid, typarray]) => [Number(oid), Number(typarray)])
}

main().catch(error => parentPort.postMessage({ ready: false, error: errorFields(error) }))
`
