// One run: a fresh embedded database, the corpus upserted as a client's requests would reach the service, then the
// worker's drainQueue() until every datasource is synched, each phase measured; then the SQL experiment.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadApp, type App, type Ctx, type Sql } from './app'
import { readCorpus, type Doc } from './corpus'
import { mark, since, type PhaseCost } from './cpu'
import { ROOT, type ProfileOptions } from './options'
import type { CpuProfile } from './categories'
import { profiled, summarizeProfile, type ProfileSummary } from './profile'
import { treeState, type ProfileResult } from './result'
import { sqlExperiment } from './sql-experiment'
import { timeStatements, type StatementStat, type StatementTimer } from './statements'

type Phase = PhaseCost & { profile: ProfileSummary; statements: StatementStat[] }
/** A phase as measured; its profile is summarised only once every phase has run, so that no phase pays for it. */
type RawPhase = { cost: PhaseCost; profile: CpuProfile; statements: Map<string, StatementStat> }

const summarized = (p: RawPhase): Phase => ({ ...p.cost, profile: summarizeProfile(p.profile), statements: sortStatements(p.statements) })

const sortStatements = (table: Map<string, StatementStat>) => [...table.values()].sort((a, b) => b.ms - a.ms)

/** The requests' bodies as a client sends them (its serialisation is the client's CPU, not the service's), and the text's bytes. */
function requestBodies(documents: Doc[], batch: number): { bodies: string[]; bytes: number } {
  const bodies: string[] = []
  for (let i = 0; i < documents.length; i += batch) {
    bodies.push(
      JSON.stringify({
        documents: documents.slice(i, i + batch).map(d => ({
          name: d.title.slice(0, 200) || undefined,
          text: d.title ? `${d.title}\n\n${d.text}` : d.text,
          metadata: { source: `scifact:${d._id}`, custom_id: d._id },
        })),
      }),
    )
  }
  const bytes = documents.reduce((n, d) => n + Buffer.byteLength(d.title) + 2 + Buffer.byteLength(d.text), 0)
  return { bodies, bytes }
}

/** One phase, measured: its CPU and wall time, its sampling profile (unless --no-profile) and its statements' time. */
async function measurePhase<T>(options: ProfileOptions, timer: StatementTimer | null, fn: () => Promise<T>): Promise<{ result: T; phase: RawPhase }> {
  const statements = new Map<string, StatementStat>()
  timer?.collect(statements)
  const start = mark()
  const { result, profile } = await profiled(options.noProfile ? null : options.intervalUs, fn)
  const cost = since(start)
  timer?.collect(undefined)
  return { result, phase: { cost, profile, statements } }
}

/** Every datasource synched, and every chunk with an embedding (or none, in full-text mode): the run's counts. */
async function checkSynched(sql: Sql, datastoreId: string, documents: number, noEmbeddings?: boolean): Promise<{ chunks: number; tokens: number }> {
  const [counts] = await sql.query<{ synched: number; chunks: number; tokens: number; rows: number }>(
    `SELECT count(*) FILTER (WHERE status = 'synched')::int AS synched, COALESCE(sum("nbChunks"), 0)::int AS chunks,
            COALESCE(sum("nbTokens"), 0)::int AS tokens,
            (SELECT count(*)::int FROM "Chunk" WHERE "datastoreId" = $1 AND (embedding IS NOT NULL) = $2) AS rows
       FROM "Datasource" WHERE "datastoreId" = $1`,
    [datastoreId, !noEmbeddings],
  )
  if (counts.synched !== documents) throw new Error(`${documents - counts.synched} of ${documents} datasources did not reach synched`)
  if (counts.rows !== counts.chunks) throw new Error(`${counts.rows} chunk rows ${noEmbeddings ? 'without' : 'with'} an embedding for ${counts.chunks} chunks`)
  return counts
}

interface Measured { chunks: number; tokens: number; textMB: number; concurrency: number; jobs: number; upsert: RawPhase; drain: RawPhase; sql: ProfileResult['sql'] }

/** Upsert, drain and the SQL experiment, on the open database. */
async function upsertAndDrain(app: App, sql: Sql, timer: StatementTimer | null, options: ProfileOptions, documents: Doc[], ctx: Ctx): Promise<Measured> {
  const datastoreId = await app.createDatastore(ctx, 'bench ingest profile')
  const concurrency = options.concurrency ?? app.workerConcurrency()
  const { bodies, bytes } = requestBodies(documents, options.batch)
  const upserted = await measurePhase(options, timer, async () => {
    let n = 0
    for (const body of bodies) n += await app.upsert(ctx, datastoreId, body)
    return n
  })
  if (upserted.result !== documents.length) throw new Error(`${upserted.result} of ${documents.length} documents upserted`)
  const drained = await measurePhase(options, timer, () => app.drain(concurrency))
  if (options.cpuprofile) fs.writeFileSync(options.cpuprofile, JSON.stringify(drained.phase.profile))
  const counts = await checkSynched(sql, datastoreId, documents.length, options.noEmbeddings)
  const sqlResult = options.sqlRounds > 0 ? await sqlExperiment(sql, datastoreId, options.sqlRounds) : undefined
  return { ...counts, textMB: bytes / 1e6, concurrency, jobs: drained.result, upsert: upserted.phase, drain: drained.phase, sql: sqlResult }
}

export async function profileIngest(options: ProfileOptions): Promise<ProfileResult> {
  // the embedded database (PGlite) is what this measures
  delete process.env.DATABASE_URL
  const documents = readCorpus(options.corpus, options.docs)
  const load = os.loadavg().map(x => Math.round(x * 10) / 10)
  // imported here, not at the top: the compare (--compare) runs without touching the app's code
  const { machine, openBenchEnvironment } = await import('../datastore-support')
  const app = await loadApp()
  const timer = options.noProfile ? null : await timeStatements()
  const opened = performance.now()
  const env = await openBenchEnvironment({ embeddings: !options.noEmbeddings })
  const dbOpenMs = performance.now() - opened
  // full-text mode: the worker finds no embeddings provider (a tree whose openBenchEnvironment takes no options reads
  // the settings again when the environment changes)
  if (options.noEmbeddings) delete process.env.OPENAI_API_KEY
  try {
    const { sql } = env.db as unknown as { sql: Sql }
    const ctx: Ctx = { organizationId: env.organizationId, actor: { type: 'user', userId: 'bench' } }
    const m = await upsertAndDrain(app, sql, timer, options, documents, ctx)
    return {
      label: options.label ?? path.basename(ROOT),
      tree: ROOT,
      state: treeState(ROOT),
      machine: machine(),
      nproc: os.cpus().length,
      node: process.version,
      load,
      options,
      docs: documents.length,
      chunks: m.chunks,
      tokens: m.tokens,
      textMB: m.textMB,
      concurrency: m.concurrency,
      jobs: m.jobs,
      dbOpenMs,
      upsert: summarized(m.upsert),
      drain: summarized(m.drain),
      sql: m.sql,
      finishedAt: new Date().toISOString(),
    }
  } finally {
    await env.close()
  }
}
