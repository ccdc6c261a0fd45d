import { bootstrap } from '@/lib/bootstrap'
import { config } from '@/lib/config'

/**
 * The web process's start (from instrumentation.ts), with the in-process sync worker unless WORKER=off. Any failure
 * stops the process with its message: a half-started service is worse than none.
 */
export async function startServer(): Promise<void> {
  try {
    await bootstrap({ web: true, worker: config().WORKER === 'on' })
  } catch (error) {
    console.error(`\nThe service could not start:\n  ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
