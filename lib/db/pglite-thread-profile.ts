// Part of the database thread's own code (lib/db/pglite-thread-source.ts): with DATABASE_STATEMENT_PROFILE set, each
// statement's time inside PGlite's lock (PostgreSQL's work and PGlite's protocol, not the wait for the lock) summed
// by its text, and written to that file every 2 seconds and at the database's close, whole, as tab-separated lines:
// runs, milliseconds, the operation and its text with its spaces collapsed. `npm run bench:load -- --statements` reads it
// (scripts/bench/load-statements.ts). Beside it, FILE.timeline gets a line a statement, appended: when it started
// (milliseconds since the epoch), how long it held the database, the first 80 characters of its key; what showed the
// database idle while the sync worker's lanes prepared their first batches (issue 28). Off, a statement costs one test
// of a variable more.
export const STATEMENT_PROFILE_SOURCE = `
function statementProfile(db, file) {
  if (!file) return { run: (op, args, fn) => fn(), timed: fn => fn(), flush() {} }
  const fs = require('node:fs')
  const { AsyncLocalStorage } = require('node:async_hooks')
  const current = new AsyncLocalStorage()
  const totals = new Map()
  let timeline = []
  const exclusive = db._runExclusiveQuery.bind(db)
  // a statement run without PGlite's locks (lib/db/pglite-thread-prepared.ts) is timed the same way
  const timed = async fn => {
    const started = performance.now()
    try {
      return await fn()
    } finally {
      const key = current.getStore() || 'other'
      const total = totals.get(key) || { runs: 0, ms: 0 }
      total.runs++
      total.ms += performance.now() - started
      timeline.push((performance.timeOrigin + started).toFixed(1) + '\\t' + (performance.now() - started).toFixed(2) + '\\t' + key.slice(0, 80))
      totals.set(key, total)
    }
  }
  db._runExclusiveQuery = fn => exclusive(() => timed(fn))
  const write = () => {
    const lines = [...totals].map(([key, t]) => t.runs + '\\t' + t.ms.toFixed(3) + '\\t' + key)
    fs.writeFileSync(file + '.tmp', lines.join('\\n') + '\\n')
    fs.renameSync(file + '.tmp', file)
    if (timeline.length > 0) fs.appendFileSync(file + '.timeline', timeline.join('\\n') + '\\n')
    timeline = []
  }
  setInterval(write, 2000).unref()
  const keyOf = (op, args) => (op + ' ' + (args.sql || '')).replace(/\\s+/g, ' ').trim().slice(0, 300)
  return { run: (op, args, fn) => current.run(keyOf(op, args), fn), timed, flush: write }
}
`
