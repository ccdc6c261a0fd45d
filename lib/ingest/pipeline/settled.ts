import type { DatasourceEventData } from '@/lib/domain/webhooks'
import { getPrisma } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { datasourceEventOf, emitEvents, type EventToEmit } from '@/lib/webhooks'
import { kindOf, REFRESHABLE_TYPES } from '../kinds'
import { scheduleNextRefresh } from '../lifecycle'
import type { RunStatus } from './run-jobs'

/**
 * What follows the end of document jobs (the outcome and validators of content just written were recorded with its
 * chunks, lifecycle/write-chunks.ts): the next scheduled refresh of the refreshable ones; and the organization's
 * webhooks told of each top-level datasource's end (a site's pages are told as one `site.refreshed`,
 * lifecycle/site-events.ts). `written`: the jobs that wrote new chunks. Never throws.
 */
export async function afterJobs(jobs: Datasource[], statuses: Map<string, RunStatus>, written: Set<string>): Promise<void> {
  try {
    // only the kinds that refresh (a batch of text or files has none: no statement)
    const refreshable = jobs.filter(j => !j.groupId && statuses.get(j.id) !== 'lease_lost' && REFRESHABLE_TYPES.includes(j.type))
    await scheduleNextRefresh(refreshable.map(j => j.id), REFRESHABLE_TYPES)
    const events = new Map<string, EventToEmit[]>()
    for (const job of jobs) {
      const data = await endingOf(job, statuses.get(job.id), written.has(job.id))
      if (data) events.set(job.organizationId, [...(events.get(job.organizationId) ?? []), data])
    }
    for (const [organizationId, list] of events) await emitEvents(organizationId, list)
  } catch (error) {
    logger.error('after-job bookkeeping failed', { error })
  }
}

/** The event a top-level document job's end is told as; null for a site's page (told in its site's refresh) or a group. */
async function endingOf(job: Datasource, status: RunStatus | undefined, wrote: boolean): Promise<EventToEmit | null> {
  const event = status ? datasourceEventOf(status) : null
  if (job.groupId || kindOf(job.type).sync === 'group' || !status || !event) return null
  const outcome = status !== 'synched' ? undefined : wrote ? (job.lastSynch ? 'changed' : 'added') : 'unchanged'
  const data: DatasourceEventData = { datasourceId: job.id, datastoreId: job.datastoreId, name: job.name, type: job.type, status, errorMessage: null, outcome }
  if (status !== 'synched') data.errorMessage = (await errorOf(job.id)) ?? null
  return { event, data }
}

async function errorOf(id: string): Promise<string | null> {
  const row = await (await getPrisma()).datasource.findUnique({ where: { id }, select: { errorMessage: true } })
  return row?.errorMessage ?? null
}
