// The SQL experiment, after the drain, on the same database and rows: the run's chunks inserted again, as the worker
// writes them, into fresh copies of the live "Chunk" table with one more feature each; the differences in CPU are
// each feature's cost per chunk. Rounds alternate the variants' order (forward, then backward).
import type { Sql } from './app'
import { chunkInserts, readChunkTable, type ChunkTable, type InsertStatement, type VariantSpec } from './chunk-table'
import { mark, since } from './cpu'

export interface SqlVariant {
  key: string
  label: string
  attributed: string
  /** The process's CPU, per round: PostgreSQL runs in the database's thread (lib/db/pglite-thread.ts), not the main one. */
  cpuMs: number[]
  wallMs: number[]
}

// untimed: the statements once into a bare copy, so that the first variant timed does not pay for first use
// (the INSERT's plan and catalog caches, code paths' first run)
async function warmUp(sql: Sql, statements: InsertStatement[]): Promise<void> {
  await sql.exec(`DROP TABLE IF EXISTS bench_chunk_warmup; CREATE TABLE bench_chunk_warmup (LIKE "Chunk" INCLUDING DEFAULTS)`)
  for (const s of statements) await sql.transaction(tx => tx.query(`INSERT INTO bench_chunk_warmup ${s.text}`, s.params))
  await sql.exec(`DROP TABLE bench_chunk_warmup`)
  // and a pause, for the drain's garbage collection and compilations on other threads to finish
  await new Promise(resolve => setTimeout(resolve, 1000))
}

/** One variant built, the statements inserted into it and timed, then dropped. */
async function timeVariant(sql: Sql, table: ChunkTable, spec: VariantSpec, statements: InsertStatement[], variant: SqlVariant): Promise<void> {
  const name = `bench_chunk_${spec.key}`
  await sql.exec(`DROP TABLE IF EXISTS "${name}"`)
  await sql.exec(`CREATE TABLE "${name}" (LIKE "Chunk" INCLUDING DEFAULTS${spec.generated ? ' INCLUDING GENERATED' : ''})`)
  for (const [k, index] of spec.indexes.entries()) await sql.exec(table.onTable(index.indexdef, name, k))
  for (const [k, trigger] of spec.triggers.entries()) await sql.exec(table.onTableTrigger(trigger.def, name, k))
  if (spec.fkeys) for (const [k, fk] of table.fkeys.entries()) await sql.exec(`ALTER TABLE "${name}" ADD CONSTRAINT "${name}_f${k}" ${fk.def}`)
  const start = mark()
  for (const s of statements) await sql.transaction(tx => tx.query(`INSERT INTO "${name}" ${s.text}`, s.params))
  const cost = since(start)
  variant.cpuMs.push(cost.cpuMs)
  variant.wallMs.push(cost.wallMs)
  await sql.exec(`DROP TABLE "${name}"`)
}

export async function sqlExperiment(sql: Sql, datastoreId: string, rounds: number): Promise<{ rows: number; variants: SqlVariant[]; notes: string[] }> {
  const { rows, statements } = await chunkInserts(sql, datastoreId)
  const table = await readChunkTable(sql)
  const { specs, notes } = table
  const variants: SqlVariant[] = specs.map(s => ({ key: s.key, label: s.label, attributed: s.attributed, cpuMs: [], wallMs: [] }))
  await warmUp(sql, statements)
  notes.push("an untimed warm-up insert of the same rows into a bare copy first; CPU is the process's, PostgreSQL's thread with it")
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? specs : [...specs].reverse()
    for (const spec of order) await timeVariant(sql, table, spec, statements, variants.find(x => x.key === spec.key)!)
  }
  return { rows, variants, notes }
}
