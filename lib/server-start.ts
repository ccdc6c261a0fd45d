import { questionsInFlight } from '@/lib/agents/admission'
import { bootstrap } from '@/lib/bootstrap'
import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { stopTracing } from '@/lib/tracing/start'

// scripts/serve.mjs runs outside Next's bundle: it finds the stop here, on globalThis
const holder = globalThis as unknown as { __stopServer?: (graceMs: number) => Promise<void> }

/**
 * The web process's start (from instrumentation.ts), with the in-process sync worker unless WORKER=off. Any failure
 * stops the process with its message: a half-started service is worse than none.
 */
export async function startServer(): Promise<void> {
  try {
    await bootstrap({ web: true, worker: config().WORKER === 'on' })
    holder.__stopServer = stopServer
  } catch (error) {
    console.error(`\nThe service could not start:\n  ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}

/**
 * The service's own work stopped, once the HTTP server takes no more requests (scripts/serve.mjs, on SIGTERM or
 * SIGINT), within `graceMs`: the questions in progress end (a stream is read to its end even when its reader left,
 * and its answer is stored then), the sync worker's running jobs finish or go back to the queue, the last traces
 * are sent, and the database is closed (the embedded one written out, so the next start has nothing to recover).
 */
export async function stopServer(graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs
  const left = () => Math.max(0, deadline - Date.now())
  while (questionsInFlight() > 0 && left() > 0) await new Promise(resolve => setTimeout(resolve, 50))
  if (questionsInFlight() > 0) logger.warn('stopping with questions still in progress', { questions: questionsInFlight() })
  const { stopWorker } = await import('@/lib/ingest/worker')
  await stopWorker(left())
  await stopTracing()
  await (await getDatabase()).close()
  logger.info('server stopped')
}
