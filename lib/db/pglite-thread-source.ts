// The database thread's own code: plain JavaScript evaluated by node:worker_threads (a file beside this one would not
// survive Next's bundling). PGlite and pgvector are resolved from the working directory, the app's root, as
// `npm start` and the tests run. It owns the one PGlite; lib/db/pglite-thread.ts speaks to it.
//
// Rows go back with every value as the text PostgreSQL sent (the main thread parses them, with the parsers the caller
// asked for: Prisma's are functions, which cannot cross threads). Errors go back as their fields, so that the main
// thread can rebuild PGlite's DatabaseError (Prisma maps its code: P2002 for a unique violation…).
import { PREPARED_STATEMENTS_SOURCE } from './pglite-thread-prepared'
import { STATEMENT_PROFILE_SOURCE } from './pglite-thread-profile'
import { WIRE_SOURCE } from './pglite-thread-wire'

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
  const compiledHere = !workerData.modules
  const modules = await compiledModules(workerData.modules)
  // an in-memory database started from a dump of another (tests' migrated template)
  const loadDataDir = workerData.fromDump ? new Blob([require('node:fs').readFileSync(workerData.fromDump)]) : undefined
  const db = await PGlite.create(workerData.dataDir, { extensions: { vector }, ...modules, loadDataDir })
  // every value stays the text PostgreSQL sent: parsing is the caller's, on the main thread
  const identity = value => value
  db.parsers = new Proxy({}, { get: () => identity })

  const transactions = new Map()
  let nextTransaction = 1
  const heapBytes = () => (db.mod && db.mod.wasmMemory ? db.mod.wasmMemory.buffer.byteLength : 0)
  const on = tx => (tx ? transactions.get(tx).handle : db)

  const profile = statementProfile(db, workerData.statementProfile)
  // operations under way (a message's from its arrival to its answer), for the prepared statements' check that none
  // but theirs is
  let underWay = 0
  const prepared = preparedStatements(db, protocol.serialize, protocol.Parser, () => underWay === 1 && transactions.size === 0, profile.timed)
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
    async binaryParameters({ oids }) {
      for (const oid of oids) db.serializers[oid] = value => (value instanceof Uint8Array ? value : String(value))
    },
    async close() {
      profile.flush()
      await db.close()
    },
  }

  parentPort.on('message', async ({ id, op, ...args }) => {
    underWay++
    try {
      const result = await profile.run(op, args, () => operations[op](args))
      parentPort.postMessage({ id, result, heapBytes: heapBytes() })
    } catch (error) {
      parentPort.postMessage({ id, error: errorFields(error), heapBytes: heapBytes() })
    } finally {
      underWay--
    }
  })
  parentPort.postMessage({ ready: true, arrayTypes: await arrayTypes(db), heapBytes: heapBytes(), modules, compiledHere })
}

// PostgreSQL's WebAssembly, compiled once a process: PGlite keeps its compiled module per thread, and each new thread
// (the reopen after a first start's migrations, every test's database) would compile its 9 MB again, ~2.5 s of CPU on
// V8's helper threads while the server already serves. A compiled module sent to another thread shares its code, the
// functions V8 has optimised since included. The first thread compiles them and sends them back with its readiness.
async function compiledModules(given) {
  if (given) return given
  const fs = require('node:fs')
  const path = require('node:path')
  const dist = path.dirname(require.resolve('@electric-sql/pglite'))
  const compile = async file => WebAssembly.compile(await fs.promises.readFile(path.join(dist, file)))
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')])
  return { pgliteWasmModule, initdbWasmModule }
}

${PREPARED_STATEMENTS_SOURCE}
${WIRE_SOURCE}
// The array types and their element types, as PGlite reads them, so that the main thread parses arrays as PGlite would
async function arrayTypes(db) {
  const { rows } = await db.query(
    "SELECT b.oid, b.typarray FROM pg_catalog.pg_type a LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem " +
    "WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid", [], { rowMode: 'array' })
  return rows.map(([oid, typarray]) => [Number(oid), Number(typarray)])
}

${STATEMENT_PROFILE_SOURCE}
main().catch(error => parentPort.postMessage({ ready: false, error: errorFields(error) }))
`
