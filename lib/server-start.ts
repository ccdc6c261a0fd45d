import { config } from '@/lib/config'
import { ensureFirstAdmin, printFirstRunBanner } from '@/lib/auth/first-run'
import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'

/**
 * What a web process does once at start (from instrumentation.ts): open the database (taking DATA_DIR's lock and
 * applying migrations), create the first admin on an empty database, and start the in-process sync worker.
 * Any failure here stops the process with its message: a half-started service is worse than none.
 */
export async function startServer(): Promise<void> {
  try {
    const env = config()
    const started = Date.now()
    const db = await getDatabase()
    const created = await ensureFirstAdmin()
    if (created) printFirstRunBanner(created, env.PORT)
    logger.info('database ready', { database: db.kind, ms: Date.now() - started })
    if (db.kind === 'pglite') {
      // only this process may use DATA_DIR: jobs leased by a previous process (killed mid-sync) are taken over now
      const { expireLeasesOfDeadWorkers } = await import('@/lib/ingest/lease')
      const expired = await expireLeasesOfDeadWorkers()
      if (expired > 0) logger.warn('jobs of a worker that stopped mid-sync are queued again', { datasources: expired })
    }
    if (env.WORKER === 'on') {
      const { startWorker } = await import('@/lib/ingest/worker')
      startWorker({ concurrency: env.WORKER_CONCURRENCY })
    }
  } catch (error) {
    console.error(`\nThe service could not start:\n  ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
