import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { messageOf } from './errors'
import { claimNextDatasource } from './lease'
import { runJob } from './run-job'

export { claimNextDatasource } from './lease'

const IDLE_POLL_MS = 500

export interface SyncWorker {
  /** Stops claiming; waits up to `graceMs` for running jobs, then gives the rest back to the queue. */
  stop(graceMs?: number): Promise<void>
}

/** A name for this worker's leases: host, process and a random part. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
}

function leaseMs(): number {
  return config().WORKER_LEASE_SECONDS * 1000
}

const holder = globalThis as unknown as { __syncWorker?: SyncWorker }

/**
 * The sync worker: `concurrency` lanes, each claiming the next due datasource and running it, polling every
 * 500 ms when idle and at once when busy. One per process (a second call returns the running one).
 */
export function startWorker(options: { concurrency: number; pollMs?: number }): SyncWorker {
  if (holder.__syncWorker) return holder.__syncWorker
  const workerId = newWorkerId()
  const pollMs = options.pollMs ?? IDLE_POLL_MS
  const stopClaiming = new AbortController()
  const stopJobs = new AbortController()

  const lane = async () => {
    while (!stopClaiming.signal.aborted) {
      let busy = false
      try {
        const job = await claimNextDatasource(workerId, leaseMs())
        if (job) {
          busy = true
          await runJob(job, workerId, { leaseMs: leaseMs(), stopSignal: stopJobs.signal })
        }
      } catch (error) {
        logger.error('sync worker lane failed', { workerId, error: messageOf(error) })
      }
      if (!busy) await sleep(pollMs, stopClaiming.signal)
    }
  }
  const lanes = Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, lane))
  logger.info('sync worker started', { workerId, concurrency: options.concurrency })

  const worker: SyncWorker = {
    async stop(graceMs = 10_000) {
      stopClaiming.abort()
      const grace = new Promise(resolve => setTimeout(resolve, graceMs).unref())
      await Promise.race([lanes, grace])
      stopJobs.abort()
      await lanes
      if (holder.__syncWorker === worker) holder.__syncWorker = undefined
      logger.info('sync worker stopped', { workerId })
    },
  }
  holder.__syncWorker = worker
  return worker
}

/**
 * Tests and benchmarks: claims and runs due jobs until none is left (pages a site discovers included), with
 * `concurrency` lanes; returns how many jobs ran. Jobs waiting for a retry backoff are not due.
 */
export async function drainQueue(options: { concurrency?: number; workerId?: string; leaseMs?: number } = {}): Promise<number> {
  const workerId = options.workerId ?? newWorkerId()
  const lease = options.leaseMs ?? leaseMs()
  let processed = 0
  const lane = async () => {
    for (;;) {
      const job = await claimNextDatasource(workerId, lease)
      if (!job) return
      await runJob(job, workerId, { leaseMs: lease })
      processed++
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, lane))
  return processed
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
