import { ensureFirstAdmin, printFirstRunBanner } from '@/lib/auth/first-run'
import { config } from '@/lib/config'
import { logCapacity } from '@/lib/db/capacity'
import { getDatabase, type Database } from '@/lib/db/client'
import { modelsInForce } from '@/lib/agents/model-catalogue'
import { logger } from '@/lib/logger'
import { startTracing } from '@/lib/tracing/start'

/**
 * What every process of the service does once at start, the web server (instrumentation.ts) and the standalone
 * worker (`npm run worker`) alike: open the database (taking DATA_DIR's lock and applying migrations); a web process
 * creates the first admin on an empty database; on the embedded database, leases left by a process that died
 * expire; then the sync worker starts when this process runs one. Throws with the reason when any step fails.
 */
export async function bootstrap(role: { web: boolean; worker: boolean }): Promise<Database> {
  const env = config()
  // traces (issue 27): OpenTelemetry's SDK is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
  await startTracing()
  const started = Date.now()
  const db = await getDatabase()
  if (role.web) {
    const created = await ensureFirstAdmin()
    if (created) printFirstRunBanner(created, env.PORT)
  }
  logger.info('database ready', { database: db.kind, ms: Date.now() - started })
  if (role.web) logModels()
  // the embedded database near its measured ceiling: one warning line with the way to PostgreSQL
  if (role.web) await logCapacity(db, Boolean(env.OPENAI_API_KEY))
  // only this process may use DATA_DIR: jobs leased by a previous process (killed mid-sync) are taken over now
  const { expireLeasesOfDeadWorkers } = await import('@/lib/ingest/lifecycle')
  const expired = await expireLeasesOfDeadWorkers()
  if (expired > 0) logger.warn('jobs of a worker that stopped mid-sync are queued again', { datasources: expired })
  // the token counter's table (~150 ms), built once the start is done rather than by the first question or job
  const { prepareTokenCounter } = await import('@/lib/ingest/tokenizer')
  setImmediate(prepareTokenCounter)
  if (role.worker) {
    const { logIngestCapabilities } = await import('@/lib/ingest/capabilities')
    logIngestCapabilities()
    const { startWorker } = await import('@/lib/ingest/worker')
    startWorker({ concurrency: env.WORKER_CONCURRENCY, housekeeping: { 'settling interrupted approvals': await approvalSettler(db, started) } })
  }
  return db
}

/**
 * Settles the approvals whose decision a stopped process left without a result (lib/agents/approval-recovery.ts).
 * The embedded database has one process: every decision made before this one started was interrupted. On PostgreSQL
 * another web process may be running one: only those older than the longest a decision takes are.
 */
export async function approvalSettler(db: Database, processStarted: number): Promise<() => Promise<number>> {
  const { decisionLongestMs, settleInterruptedApprovals } = await import('@/lib/agents/approval-recovery')
  const decidedBefore = () => new Date(db.kind === 'pglite' ? processStarted : Date.now() - decisionLongestMs())
  return () => settleInterruptedApprovals(decidedBefore())
}

/** The chat and embeddings endpoints and models in force (never keys); a warning when agents cannot answer. */
function logModels(): void {
  const { chat, embeddings } = modelsInForce()
  logger.info('models', {
    chat: chat.configured ? { endpoint: chat.endpoint, models: chat.models } : 'not configured',
    embeddings: embeddings.configured ? { endpoint: embeddings.endpoint, model: embeddings.model, dimensions: embeddings.dimensions } : 'not configured: search is full-text only',
  })
  if (chat.problem) logger.warn(`agents cannot answer: ${chat.problem}`)
}
