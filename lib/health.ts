import { modelHealth } from '@/lib/agents/model-health'
import { modelsInForce } from '@/lib/agents/model-catalogue'
import { databaseCapacity } from '@/lib/db/capacity'
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import type { HealthReport } from '@/lib/domain/service'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { STALE_AFTER_MS, workersAlive } from '@/lib/ingest/worker-heartbeat'
import { probeModelServer } from '@/lib/models/probe'
import pkg from '@/package.json'

// GET /api/health (issue 22): anyone may ask whether the service is up and on which kind of database (what a load
// balancer needs); the details — version, the model endpoints, the last model failure, the chunks held — are for the
// organization (an API key, a dashboard session) or a monitor holding METRICS_TOKEN, as they map the internals.
// ?deep=1 with the details (issue 27) checks what answers depend on: the model server and the embeddings (a cached
// probe, lib/models/probe.ts), the database and the sync workers' heartbeat.

type Checks = NonNullable<HealthReport['checks']>

// How long the check waits for its statement before asking whether the embedded database is merely busy
const PING_PATIENCE_MS = 1_000
// A transaction whose statements keep ending this recently is at work, not stuck
const ALIVE_WITHIN_MS = 30_000

export async function serviceHealth({ detailed, deep = false }: { detailed: boolean; deep?: boolean }): Promise<HealthReport> {
  const db = await getDatabase()
  const started = performance.now()
  const busy = await databaseBusy(db.sql)
  const databaseMs = Math.round(performance.now() - started)
  const state = { status: 'ok' as const, database: db.kind, ...(busy && { databaseBusy: true as const }) }
  if (!detailed) return state
  // the models named (endpoints and ids, never keys): what the dashboard shows is what the server calls
  // capacity: chunks held, and on the embedded database how close they are to its measured ceiling (lib/db/capacity.ts)
  const capacity = await databaseCapacity(db, embeddingsProvider() !== null)
  const report: HealthReport = { ...state, version: pkg.version, models: { ...modelsInForce(), lastFailure: modelHealth().lastFailure }, capacity }
  if (!deep) return report
  const checks = await deepChecks(databaseMs)
  const down = checks.model.status === 'down' || checks.embeddings.status === 'down' || checks.worker.status === 'down'
  return { ...report, status: down ? 'degraded' : 'ok', checks }
}

async function deepChecks(databaseMs: number): Promise<Checks> {
  const [probe, workers] = await Promise.all([probeModelServer(), workersAlive()])
  const worker: Checks['worker'] =
    workers.alive > 0
      ? { status: 'up', ...workers, message: null }
      : { status: 'down', ...workers, message: `No sync worker has reported in the last ${STALE_AFTER_MS / 1000} s: start one (WORKER=on, or npm run worker)` }
  return { database: { status: 'up', latencyMs: databaseMs }, model: probe.chat, embeddings: probe.embeddings, worker }
}

/**
 * Whether the database answers (throws when it fails). The embedded database runs one statement at a time, and a
 * large file's chunks are written in one transaction of several seconds: a check that waited for it would tell a load
 * balancer the service is down while it works. So past PING_PATIENCE_MS, a transaction whose statements keep ending is
 * reported as busy (true), not waited for; anything else is waited for.
 */
async function databaseBusy(sql: SqlDriver): Promise<boolean> {
  const ping = sql.query('SELECT 1')
  if (!sql.activity) return ping.then(() => false)
  let timer: NodeJS.Timeout | undefined
  const patience = new Promise<'waiting'>(resolve => (timer = setTimeout(() => resolve('waiting'), PING_PATIENCE_MS)))
  const first = await Promise.race([ping.then(() => 'answered' as const), patience]).finally(() => clearTimeout(timer))
  if (first === 'answered') return false
  const { transactionSince, lastStatementAt } = sql.activity()
  if (transactionSince !== null && Date.now() - lastStatementAt < ALIVE_WITHIN_MS) {
    ping.catch(() => {}) // answered later, once the transaction ends; a failure then is the next check's
    return true
  }
  await ping
  return false
}
