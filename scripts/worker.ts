// `npm run worker`: the sync worker alone, for scale-out (DESIGN.md §1): run any number of these against the same
// DATABASE_URL, and the web processes with WORKER=off. WORKER_CONCURRENCY jobs at once; SIGINT/SIGTERM stop it
// gracefully: running jobs get a grace period to finish, the rest go back to the queue for another worker.
import { bootstrap } from '@/lib/bootstrap'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { stopWorker } from '@/lib/ingest/worker'
import { stopTracing } from '@/lib/tracing/start'

const STOP_GRACE_MS = 20_000

async function main() {
  const env = config()
  if (!env.DATABASE_URL) {
    console.log(`No DATABASE_URL: using the embedded database in ${env.DATA_DIR}, which one process at a time may open (set DATABASE_URL to run several workers).`)
  }
  // the server's start-up without its web part; with the embedded database this takes DATA_DIR's lock, so a
  // running `npm start` makes it refuse, with the reason
  const db = await bootstrap({ web: false, worker: true })
  logger.info('worker process ready', { database: db.kind, concurrency: env.WORKER_CONCURRENCY })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('worker process stopping', { signal })
    await stopWorker(STOP_GRACE_MS)
    // the last spans are sent before the process ends
    await stopTracing()
    await db.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch(error => {
  console.error(`\nThe worker could not start:\n  ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
