// `npm run bench:load -- --statements`: where the embedded database's thread spends its time, statement by statement,
// for each level of the load. The server writes its totals (DATABASE_STATEMENT_PROFILE, lib/db/pglite-thread-profile.ts)
// every 2 seconds; a level's share is the difference between the totals read after it and before it.
import fs from 'node:fs'
import { sleep } from './load-support'

export type StatementTotals = Map<string, { runs: number; ms: number }>

// the server writes its totals every 2 s: a snapshot taken this long after a level holds all of it
const FLUSHED_MS = 2500
const SHAPE_LENGTH = 110

/** The totals the server wrote last (none yet: empty). */
export async function statementSnapshot(file: string): Promise<StatementTotals> {
  await sleep(FLUSHED_MS)
  const totals: StatementTotals = new Map()
  if (!fs.existsSync(file)) return totals
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const [runs, ms, key] = line.split('\t')
    if (key) totals.set(key, { runs: Number(runs), ms: Number(ms) })
  }
  return totals
}

/** The statements that took most of the database thread's time between two snapshots, per question. */
export function statementsTable(label: string, before: StatementTotals, after: StatementTotals, questions: number, top = 15): string {
  // one line a statement's shape, its beginning with its parameters unnumbered: BM25's rounds differ only by how
  // many terms they score
  const shapes = new Map<string, { key: string; runs: number; ms: number }>()
  for (const [key, t] of after) {
    const earlier = before.get(key) ?? { runs: 0, ms: 0 }
    const shape = key.replace(/\$\d+/g, '$n').slice(0, SHAPE_LENGTH)
    const row = shapes.get(shape) ?? { key: shape, runs: 0, ms: 0 }
    row.runs += t.runs - earlier.runs
    row.ms += t.ms - earlier.ms
    shapes.set(shape, row)
  }
  const rows = [...shapes.values()].filter(r => r.runs > 0).sort((a, b) => b.ms - a.ms)
  const all = rows.reduce((sum, r) => sum + r.ms, 0)
  const perQuestion = (n: number) => (questions ? (n / questions).toFixed(2) : '–')
  return [
    `\nThe database thread, ${label}: ${perQuestion(all)} ms a question inside PGlite's lock (${questions} questions)\n`,
    '| ms a question | runs a question | ms a run | statement |',
    '|---|---|---|---|',
    ...rows.slice(0, top).map(r => `| ${perQuestion(r.ms)} | ${perQuestion(r.runs)} | ${(r.ms / r.runs).toFixed(2)} | \`${r.key.replace(/\|/g, '\\|')}\` |`),
  ].join('\n')
}
