import { logger } from '@/lib/logger'
import { LeaseLost, messageOf } from '../errors'
import { renewLeases } from '../lifecycle'

/** Thrown into running jobs when their worker shuts down and the grace period is over. */
export class WorkerStopping extends Error {
  constructor() {
    super('The worker is stopping')
    this.name = 'WorkerStopping'
  }
}

export interface Heartbeat {
  /** Aborted when the worker stops, or when every open job's lease was lost. */
  signal: AbortSignal
  /** Whether this job's lease was lost (taken over, re-queued or deleted). */
  lost(id: string): boolean
  /** Why a job failed, as its settlement should see it: the lost lease or the stop before the error itself. */
  reasonFor(id: string, error: unknown): unknown
  stop(): void
}

/**
 * Renews the leases of the jobs still open (every third of the lease) while they run. A job whose lease is lost is
 * marked so, and writes nothing; when no open job holds its lease any more, or the worker stops, `signal` aborts
 * whatever they are waiting on (a fetch, an embeddings request).
 */
export function startHeartbeat(openJobs: () => string[], workerId: string, leaseMs: number, stopSignal?: AbortSignal): Heartbeat {
  const controller = new AbortController()
  const lost = new Set<string>()
  const onStop = () => controller.abort(new WorkerStopping())
  stopSignal?.addEventListener('abort', onStop, { once: true })
  const timer = setInterval(() => {
    const open = openJobs().filter(id => !lost.has(id))
    renewLeases(open, workerId, leaseMs)
      .then(held => {
        for (const id of open) if (!held.has(id)) lost.add(id)
        if (open.length > 0 && held.size === 0) controller.abort(new LeaseLost(open[0]))
      })
      .catch(error => logger.warn('lease renewal failed', { error: messageOf(error) }))
  }, Math.max(250, Math.floor(leaseMs / 3)))
  timer.unref?.()
  return {
    signal: controller.signal,
    lost: id => lost.has(id),
    reasonFor: (id, error) => (lost.has(id) ? new LeaseLost(id) : (controller.signal.reason ?? error)),
    stop() {
      clearInterval(timer)
      stopSignal?.removeEventListener('abort', onStop)
    },
  }
}
