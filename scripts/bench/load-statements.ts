// `npm run bench:load -- --statements`: where the database spends its time, statement by statement, for each level of
// the load. Embedded, the time on the database's thread: the server writes its totals (DATABASE_STATEMENT_PROFILE,
// lib/db/pglite-thread-profile.ts) every 2 seconds. On PostgreSQL (BENCH_DATABASE_URL), each statement's execution
// time from pg_stat_statements, which must be loaded (`shared_preload_libraries = 'pg_stat_statements'`, then a
// restart; the extension is created here). A level's share is the difference between the totals after it and before.
import fs from 'node:fs'
import pg from 'pg'
import { sleep } from './load-support'

export type StatementTotals = Map<string, { runs: number; ms: number }>

/** Where the totals are read: the embedded server's file, or PostgreSQL's pg_stat_statements. */
export type StatementSource = { file: string } | { postgres: string }

export function statementSnapshot(source: StatementSource): Promise<StatementTotals> {
  return 'file' in source ? fileSnapshot(source.file) : postgresSnapshot(source.postgres)
}

/** pg_stat_statements' totals, by statement (the database's, every schema). */
async function postgresSnapshot(url: string): Promise<StatementTotals> {
  const address = new URL(url)
  address.searchParams.delete('schema')
  const client = new pg.Client({ connectionString: address.toString() })
  await client.connect()
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
    const { rows } = await client.query<{ calls: string; ms: number; query: string }>(
      `SELECT calls::text, total_exec_time AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    )
    return new Map(rows.map(r => [r.query, { runs: Number(r.calls), ms: r.ms }]))
  } catch (error) {
    throw new Error(`--statements on PostgreSQL reads pg_stat_statements: load it with shared_preload_libraries = 'pg_stat_statements' and restart PostgreSQL (${error instanceof Error ? error.message : String(error)})`)
  } finally {
    await client.end()
  }
}

// the server writes its totals every 2 s: a snapshot taken this long after a level holds all of it
const FLUSHED_MS = 2500
const SHAPE_LENGTH = 110

/** The totals the server wrote last (none yet: empty). */
async function fileSnapshot(file: string): Promise<StatementTotals> {
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
export function statementsTable(label: string, before: StatementTotals, after: StatementTotals, questions: number, onPostgres: boolean, top = 15): string {
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
    onPostgres
      ? `\nPostgreSQL, ${label}: ${perQuestion(all)} ms a question of statements' execution (pg_stat_statements; ${questions} questions)\n`
      : `\nThe database thread, ${label}: ${perQuestion(all)} ms a question inside PGlite's lock (${questions} questions)\n`,
    '| ms a question | runs a question | ms a run | statement |',
    '|---|---|---|---|',
    ...rows.slice(0, top).map(r => `| ${perQuestion(r.ms)} | ${perQuestion(r.runs)} | ${(r.ms / r.runs).toFixed(2)} | \`${r.key.replace(/\|/g, '\\|')}\` |`),
  ].join('\n')
}
