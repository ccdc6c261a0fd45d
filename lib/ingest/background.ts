import { pruneAudit } from '@/lib/audit/record'
import { pruneSignInAttempts } from '@/lib/auth/sign-in-throttle'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { deliverDueWebhooks } from '@/lib/webhooks'
import { messageOf } from './errors'
import { REFRESHABLE_TYPES } from './kinds'
import { enqueueDueRefreshes } from './lifecycle'
import { sendWebhook } from './web/webhook-sender'

const DELIVERY_POLL_MS = 1000

/** Queues the web sources whose scheduled refresh is due, spread over REFRESH_SPREAD_SECONDS; returns their ids. */
export function queueDueRefreshes(): Promise<string[]> {
  return enqueueDueRefreshes(REFRESHABLE_TYPES, { spreadSeconds: config().REFRESH_SPREAD_SECONDS })
}

/** Sends the due webhook deliveries once (a batch); returns how many were attempted. */
export function deliverWebhooks(workerId: string, signal?: AbortSignal): Promise<number> {
  return deliverDueWebhooks(sendWebhook, workerId, { signal })
}

/** Tests: sends due webhook deliveries until none is due (retries whose backoff has passed included). */
export async function drainWebhooks(workerId = 'drain'): Promise<number> {
  let sent = 0
  for (let n; (n = await deliverWebhooks(workerId)) > 0; ) sent += n
  return sent
}

/** The process's own periodic work, given by the process that starts the worker (lib/bootstrap.ts): named for its log. */
export type Housekeeping = Record<string, () => Promise<unknown>>

/**
 * The worker's two background lanes, until `stop` aborts: the refresh lane queues due refreshes at start and every
 * REFRESH_CHECK_SECONDS (the sync lanes then run them), prunes old records and runs `housekeeping`; the delivery
 * lane sends due webhook deliveries, polling every second when idle. `abortJobs` aborts deliveries in flight (given
 * back to the queue).
 */
export function startBackgroundLanes(workerId: string, stop: AbortSignal, abortJobs: AbortSignal, housekeeping: Housekeeping = {}): Promise<void> {
  const refreshLane = async () => {
    while (!stop.aborted) {
      try {
        const queued = await queueDueRefreshes()
        if (queued.length > 0) logger.info('scheduled refreshes queued', { workerId, count: queued.length })
        const pruned = await pruneAudit(config().AUDIT_RETENTION_DAYS)
        if (pruned > 0) logger.info('old audit entries removed', { workerId, count: pruned })
        await pruneSignInAttempts()
      } catch (error) {
        logger.error('scheduled refresh check failed', { workerId, error: messageOf(error) })
      }
      for (const [name, work] of Object.entries(housekeeping)) {
        await work().catch(error => logger.error(`${name} failed`, { workerId, error: messageOf(error) }))
      }
      await sleep(config().REFRESH_CHECK_SECONDS * 1000, stop)
    }
  }
  const deliveryLane = async () => {
    while (!stop.aborted) {
      let busy = false
      try {
        busy = (await deliverWebhooks(workerId, abortJobs)) > 0
      } catch (error) {
        logger.error('webhook delivery lane failed', { workerId, error: messageOf(error) })
      }
      if (!busy) await sleep(DELIVERY_POLL_MS, stop)
    }
  }
  return Promise.all([refreshLane(), deliveryLane()]).then(() => undefined)
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
