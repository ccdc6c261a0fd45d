// Part of the database thread's own code (lib/db/pglite-thread-source.ts): with DATABASE_STATEMENT_PROFILE set, each
// statement's time inside PGlite's lock (PostgreSQL's work and PGlite's protocol, not the wait for the lock) summed
// by its text, and written to that file every 2 seconds, whole, as tab-separated lines: runs, milliseconds, the
// operation and its text with its spaces collapsed. `npm run bench:load -- --statements` reads it
// (scripts/bench/load-statements.ts). Off, a statement costs one test of a variable more.
export const STATEMENT_PROFILE_SOURCE = `
function statementProfile(db, file) {
  if (!file) return { run: (op, args, fn) => fn() }
  const fs = require('node:fs')
  const { AsyncLocalStorage } = require('node:async_hooks')
  const current = new AsyncLocalStorage()
  const totals = new Map()
  const exclusive = db._runExclusiveQuery.bind(db)
  db._runExclusiveQuery = fn => exclusive(async () => {
    const started = performance.now()
    try {
      return await fn()
    } finally {
      const key = current.getStore() || 'other'
      const total = totals.get(key) || { runs: 0, ms: 0 }
      total.runs++
      total.ms += performance.now() - started
      totals.set(key, total)
    }
  })
  const write = () => {
    const lines = [...totals].map(([key, t]) => t.runs + '\\t' + t.ms.toFixed(3) + '\\t' + key)
    fs.writeFileSync(file + '.tmp', lines.join('\\n') + '\\n')
    fs.renameSync(file + '.tmp', file)
  }
  setInterval(write, 2000).unref()
  const keyOf = (op, args) => (op + ' ' + (args.sql || '')).replace(/\\s+/g, ' ').trim().slice(0, 300)
  return { run: (op, args, fn) => current.run(keyOf(op, args), fn) }
}
`
