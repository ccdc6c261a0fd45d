import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { embeddingsProvider, type EmbeddingsProvider } from '@/lib/search/embeddings'
import { storedTokens, storedTokensLimit } from '@/lib/usage/stored-tokens'
import { chunkingFor, chunkSections } from './chunker'
import { contentHash } from './content-hash'
import { embedChunks, embeddingsFingerprint } from './embed-chunks'
import { LeaseLost, messageOf, permanentError } from './errors'
import { NOW_UTC, settle } from './lease'
import { runJob, settleFailure, WorkerStopping, type RunStatus } from './run-job'
import { extract } from './sync-document'
import { refreshSiteStatus } from './web/site-status'
import { replaceChunksBatch, type BatchItem } from './write-batch'
import { replaceChunks, usageLimitMessage, type SyncedContent } from './write-chunks'

/** Datasource types whose jobs are run together: their content is at hand (no fetch), so each job is short. */
export const BATCHED_TYPES: Datasource['type'][] = ['text', 'file']

/** Jobs claimed and run together at most. */
export const JOB_BATCH_SIZE = 32

/** Chunks embedded and written together at most (more when one job has more). */
const MAX_GROUP_CHUNKS = 512

interface Pending {
  job: Datasource
  content?: SyncedContent
  limit?: number
}

/**
 * Runs several claimed text and file jobs together, each to the end runJob would give it, with a few statements and
 * one embeddings request for all of them: the datastores read once, the originals loaded and chunked, the
 * stored-token limit checked per organization, the chunks embedded together and written in one transaction
 * (replaceChunksBatch), by groups of about MAX_GROUP_CHUNKS chunks. A job's own failure (a corrupt file, no text) ends
 * that job only. When the batched embeddings request or the batched write fails, each job is retried alone, so one
 * bad job cannot fail the others. A lone job, a web job, or one claimed again too many times goes through runJob.
 */
export async function runBatch(jobs: Datasource[], workerId: string, options: { leaseMs: number; stopSignal?: AbortSignal }): Promise<RunStatus[]> {
  if (jobs.length <= 1) return jobs.length === 1 ? [await runJob(jobs[0], workerId, options)] : []
  // a web job, or one claimed again too many times (it ends in error at once), runs alone; the others together
  const maxAttempts = config().WORKER_MAX_ATTEMPTS
  const alone = jobs.filter(j => !BATCHED_TYPES.includes(j.type) || j.attempts > maxAttempts)
  if (alone.length > 0) {
    const outcome = new Map<string, RunStatus>()
    const together = jobs.filter(j => !alone.includes(j))
    for (const job of alone) outcome.set(job.id, await runJob(job, workerId, options))
    ;(await runBatch(together, workerId, options)).forEach((status, i) => outcome.set(together[i].id, status))
    return jobs.map(j => outcome.get(j.id)!)
  }
  const started = Date.now()
  const statuses = new Map<string, RunStatus>()
  const lost = new Set<string>()
  const controller = new AbortController()
  const onStop = () => controller.abort(new WorkerStopping())
  options.stopSignal?.addEventListener('abort', onStop, { once: true })
  const heartbeat = setInterval(() => {
    const open = jobs.filter(j => !statuses.has(j.id)).map(j => j.id)
    renewLeases(open, workerId, options.leaseMs)
      .then(held => open.filter(id => !held.has(id)).forEach(id => lost.add(id)))
      .catch(error => logger.warn('lease renewal failed', { error: messageOf(error) }))
  }, Math.max(250, Math.floor(options.leaseMs / 3)))
  heartbeat.unref?.()

  const fail = async (job: Datasource, error: unknown) => {
    const reason = lost.has(job.id) ? new LeaseLost(job.id) : (controller.signal.reason ?? error)
    statuses.set(job.id, await settleFailure(job, workerId, reason, error))
  }
  try {
    const { prisma } = await getDatabase()
    const storeIds = [...new Set(jobs.map(j => j.datastoreId))]
    const stores = new Map(
      (await prisma.datastore.findMany({ where: { id: { in: storeIds } }, select: { id: true, chunkSize: true, chunkOverlap: true } })).map(s => [s.id, s]),
    )
    const provider = embeddingsProvider()
    const fingerprint = embeddingsFingerprint(provider)
    const limits = new Map<string, number>()
    // stored tokens per organization, read once per group (a group's write changes them)
    let stored = new Map<string, number>()
    let group: Required<Pending>[] = []
    let groupChunks = 0
    const flush = async () => {
      const ready = group
      group = []
      groupChunks = 0
      stored = new Map()
      if (ready.length > 0) await embedAndWrite(ready, provider, workerId, controller.signal, lost, statuses, fail)
    }

    for (const job of jobs) {
      try {
        controller.signal.throwIfAborted()
        const store = stores.get(job.datastoreId)
        if (!store) throw new LeaseLost(job.id)
        const { sections } = await extract(job, controller.signal)
        const chunking = chunkingFor(store)
        const hash = contentHash({ sections, chunking, embeddingsModel: fingerprint, customId: job.customId })
        if (hash === job.contentHash && job.lastSynch) {
          statuses.set(job.id, (await settle.unchanged(job.id, workerId)) ? 'synched' : 'lease_lost')
          continue
        }
        const chunks = chunkSections(sections, chunking)
        if (chunks.length === 0) throw permanentError('The file has no text')
        const tokens = chunks.reduce((n, c) => n + c.tokens, 0)
        // checked before paying for embeddings, and again, exactly (counting the batch's jobs written before), when writing
        let limit = limits.get(job.organizationId)
        if (limit === undefined) limits.set(job.organizationId, (limit = await storedTokensLimit(job.organizationId)))
        let total = stored.get(job.organizationId)
        if (total === undefined) stored.set(job.organizationId, (total = await storedTokens(job.organizationId)))
        const projected = total - job.nbTokens + tokens
        if (projected > limit) {
          const ok = await settle.usageLimitReached(job.id, workerId, usageLimitMessage(tokens, projected, limit))
          statuses.set(job.id, ok ? 'usage_limit_reached' : 'lease_lost')
          continue
        }
        group.push({ job, limit, content: { chunks, embeddings: null, textSize: sections.reduce((n, s) => n + s.text.length, 0), contentHash: hash } })
        groupChunks += chunks.length
      } catch (error) {
        await fail(job, error)
      }
      // a group's chunks and embeddings stay in memory until written: large files are written as they come
      if (groupChunks >= MAX_GROUP_CHUNKS) await flush()
    }
    await flush()
  } catch (error) {
    // the batch as a whole stopped (the worker is stopping, the database failed): every job left open ends as runJob's would
    for (const job of jobs) if (!statuses.has(job.id)) await fail(job, error)
  } finally {
    clearInterval(heartbeat)
    options.stopSignal?.removeEventListener('abort', onStop)
  }

  const ms = Date.now() - started
  for (const job of jobs) {
    if (job.groupId) await refreshSiteStatus(job.groupId).catch(error => logger.error('site status refresh failed', { siteId: job.groupId, error }))
    logger.info('datasource job finished', { datasourceId: job.id, type: job.type, status: statuses.get(job.id), attempt: job.attempts, batch: jobs.length, ms })
  }
  return jobs.map(j => statuses.get(j.id) ?? 'lease_lost')
}

/**
 * One embeddings request (the provider splits it in batches) for a group's chunks, then one write; if the request
 * fails, the jobs are embedded one by one, so that a job the provider refuses fails alone.
 */
async function embedAndWrite(
  group: Required<Pending>[],
  provider: EmbeddingsProvider | null,
  workerId: string,
  signal: AbortSignal,
  lost: Set<string>,
  statuses: Map<string, RunStatus>,
  fail: (job: Datasource, error: unknown) => Promise<void>,
): Promise<void> {
  let ready = group
  if (provider) {
    try {
      const embeddings = await embedChunks(provider, group.flatMap(p => p.content.chunks), signal)
      let offset = 0
      for (const p of group) p.content.embeddings = embeddings.slice(offset, (offset += p.content.chunks.length))
    } catch (error) {
      if (signal.aborted) throw error
      ready = []
      for (const p of group) {
        try {
          p.content.embeddings = await embedChunks(provider, p.content.chunks, signal)
          ready.push(p)
        } catch (jobError) {
          if (signal.aborted) throw jobError
          await fail(p.job, jobError)
        }
      }
    }
  }
  signal.throwIfAborted()
  for (const p of ready) if (lost.has(p.job.id)) statuses.set(p.job.id, 'lease_lost')
  ready = ready.filter(p => !lost.has(p.job.id))
  if (ready.length > 0) await write(ready, workerId, statuses, fail)
}

/** The batch's chunks in one transaction; if it fails, each job alone, so that a bad one fails only itself. */
async function write(ready: Required<Pending>[], workerId: string, statuses: Map<string, RunStatus>, fail: (job: Datasource, error: unknown) => Promise<void>) {
  let outcomes
  try {
    outcomes = await replaceChunksBatch(workerId, ready.map((p): BatchItem => ({ job: p.job, content: p.content, limit: p.limit })))
  } catch (error) {
    logger.warn('batched chunk write failed; writing job by job', { jobs: ready.length, error: messageOf(error) })
    for (const p of ready) {
      try {
        const outcome = await replaceChunks(p.job, workerId, p.content, p.limit)
        statuses.set(p.job.id, outcome.status)
      } catch (jobError) {
        await fail(p.job, jobError)
      }
    }
    return
  }
  ready.forEach((p, i) => statuses.set(p.job.id, outcomes[i].status))
}

/** Extends the leases of several jobs in one statement; returns the ids still held by this worker. */
async function renewLeases(ids: string[], workerId: string, leaseMs: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const { sql } = await getDatabase()
  const rows = await sql.query<{ id: string }>(
    `UPDATE "Datasource" SET "leaseExpiresAt" = ${NOW_UTC} + make_interval(secs => $3)
      WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running' RETURNING id`,
    [ids, workerId, leaseMs / 1000],
  )
  return new Set(rows.map(r => r.id))
}
