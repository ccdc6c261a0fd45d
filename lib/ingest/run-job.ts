import { config } from '@/lib/config'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { IngestError, LeaseLost, messageOf, permanentError } from './errors'
import { renewLease, settle } from './lease'
import { syncDocument, type JobOutcome } from './sync-document'
import { syncWebSite } from './web/site'
import { refreshSiteStatus } from './web/site-status'

/** Thrown into a running job when its worker shuts down and the grace period is over. */
export class WorkerStopping extends Error {
  constructor() {
    super('The worker is stopping')
    this.name = 'WorkerStopping'
  }
}

export type RunStatus = JobOutcome['status'] | 'lease_lost'

/**
 * Runs one claimed job to its end and records the outcome, never throwing for the job's own failures: synched;
 * a permanent failure → error with its reason; a transient one → back to pending after a backoff
 * (WORKER_RETRY_BASE_SECONDS × 2^(attempt−1)) until WORKER_MAX_ATTEMPTS, then error. The lease is renewed while
 * the job runs; once lost, the job stops and writes nothing. `stopSignal` gives the job back to the queue.
 */
export async function runJob(job: Datasource, workerId: string, options: { leaseMs: number; stopSignal?: AbortSignal }): Promise<RunStatus> {
  const started = Date.now()
  const env = config()
  const controller = new AbortController()
  const onStop = () => controller.abort(new WorkerStopping())
  options.stopSignal?.addEventListener('abort', onStop, { once: true })
  const heartbeat = setInterval(() => {
    renewLease(job.id, workerId, options.leaseMs)
      .then(held => {
        if (!held) controller.abort(new LeaseLost(job.id))
      })
      .catch(error => logger.warn('lease renewal failed', { datasourceId: job.id, error: messageOf(error) }))
  }, Math.max(250, Math.floor(options.leaseMs / 3)))
  heartbeat.unref?.()

  let status: RunStatus
  let chunks = job.nbChunks
  let unchanged = false
  try {
    if (job.attempts > env.WORKER_MAX_ATTEMPTS) {
      // claimed again after its lease expired, too many times: something kills the worker on this datasource
      throw permanentError(`The synchronisation was interrupted ${job.attempts - 1} times (the worker stopped while running it)`)
    }
    const ctx = { workerId, leaseMs: options.leaseMs, signal: controller.signal }
    const outcome = job.type === 'web_site' ? await syncWebSite(job, ctx) : await syncDocument(job, ctx)
    status = outcome.status
    chunks = outcome.chunks
    unchanged = outcome.unchanged ?? false
  } catch (error) {
    status = await settleFailure(job, workerId, controller.signal.reason ?? error, error)
  } finally {
    clearInterval(heartbeat)
    options.stopSignal?.removeEventListener('abort', onStop)
  }
  if (job.groupId) {
    await refreshSiteStatus(job.groupId).catch(error => logger.error('site status refresh failed', { siteId: job.groupId, error }))
  }
  logger.info('datasource job finished', { datasourceId: job.id, type: job.type, status, chunks, unchanged, attempt: job.attempts, ms: Date.now() - started })
  return status
}

/** Records a job's failure as runJob does (error, retry with backoff, or release at shutdown); never throws for it. */
export async function settleFailure(job: Datasource, workerId: string, reason: unknown, error: unknown): Promise<RunStatus> {
  const env = config()
  if (reason instanceof LeaseLost || error instanceof LeaseLost) {
    logger.warn('datasource job abandoned: lease lost', { datasourceId: job.id })
    return 'lease_lost'
  }
  if (reason instanceof WorkerStopping) {
    await settle.release(job.id, workerId)
    return 'pending'
  }
  const message = readableMessage(error)
  if (error instanceof IngestError && error.permanent) {
    return (await settle.error(job.id, workerId, message)) ? 'error' : 'lease_lost'
  }
  if (!(error instanceof IngestError)) logger.error('datasource job failed unexpectedly', { datasourceId: job.id, error })
  if (job.attempts >= env.WORKER_MAX_ATTEMPTS) {
    const final = `${message} (gave up after ${job.attempts} attempts)`
    return (await settle.error(job.id, workerId, final)) ? 'error' : 'lease_lost'
  }
  const delaySeconds = env.WORKER_RETRY_BASE_SECONDS * 2 ** (job.attempts - 1)
  return (await settle.retry(job.id, workerId, `${message} (attempt ${job.attempts} of ${env.WORKER_MAX_ATTEMPTS}; retrying)`, delaySeconds)) ? 'pending' : 'lease_lost'
}

/** One line, bounded: an errorMessage is shown in the dashboard and API. */
function readableMessage(error: unknown): string {
  const text = messageOf(error).split('\n')[0].trim() || 'Unknown error'
  return text.length > 500 ? `${text.slice(0, 497)}...` : text
}
