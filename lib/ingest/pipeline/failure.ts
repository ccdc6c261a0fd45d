import { config } from '@/lib/config'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { IngestError, LeaseLost, messageOf } from '../errors'
import { countRemovedPages, removeDatasources, settle } from '../lifecycle'
import { PageGone } from '../web/fetcher'
import { WorkerStopping } from './heartbeat'
import type { RunStatus } from './run-jobs'

/**
 * Records a job's failure, never throwing for it: a lost lease writes nothing; a stopping worker gives the job back;
 * a permanent failure → error with its reason; a transient one → back to pending after a backoff
 * (WORKER_RETRY_BASE_SECONDS × 2^(attempt−1)) until WORKER_MAX_ATTEMPTS, then error.
 */
export async function settleFailedJob(job: Datasource, workerId: string, reason: unknown, error: unknown): Promise<RunStatus> {
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
  if (error instanceof PageGone && job.groupId) return pageGone(job, workerId, message)
  if (error instanceof IngestError && error.permanent) {
    return (await settle.error(job.id, workerId, message)) ? 'error' : 'lease_lost'
  }
  if (!(error instanceof IngestError)) logger.error('datasource job failed unexpectedly', { datasourceId: job.id, error })
  if (job.attempts >= env.WORKER_MAX_ATTEMPTS) {
    const final = `${message} (gave up after ${job.attempts} attempts)`
    return (await settle.error(job.id, workerId, final)) ? 'error' : 'lease_lost'
  }
  const delaySeconds = env.WORKER_RETRY_BASE_SECONDS * 2 ** (job.attempts - 1)
  const retrying = `${message} (attempt ${job.attempts} of ${env.WORKER_MAX_ATTEMPTS}; retrying)`
  return (await settle.retry(job.id, workerId, retrying, delaySeconds)) ? 'pending' : 'lease_lost'
}

/**
 * A site's page answered 404 or 410: the first time it keeps its content and says why (an error); the second time
 * in a row it is removed with its chunks, and counted in its site's refresh.
 */
async function pageGone(job: Datasource, workerId: string, message: string): Promise<RunStatus> {
  const times = await settle.gone(job.id, workerId, message)
  if (times === 0) return 'lease_lost'
  if (times < 2) return 'error'
  const removed = await removeDatasources([job.id])
  await countRemovedPages(job.groupId!, removed.length)
  logger.info('site page removed: gone twice in a row', { datasourceId: job.id, siteId: job.groupId })
  return 'error'
}

/** One line, bounded: an errorMessage is shown in the dashboard and API. */
function readableMessage(error: unknown): string {
  const text = messageOf(error).split('\n')[0].trim() || 'Unknown error'
  return text.length > 500 ? `${text.slice(0, 497)}...` : text
}
