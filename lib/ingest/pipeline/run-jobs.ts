import { metrics } from '@/lib/metrics/registry'
import { config } from '@/lib/config'
import type { DatasourceStatus } from '@/lib/domain/datasources'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger, withLogContext } from '@/lib/logger'
import { permanentError } from '../errors'
import { kindOf, REFRESHABLE_TYPES } from '../kinds'
import { refreshGroupStatus, scheduleNextRefresh, type ChunkWrite } from '../lifecycle'
import { embedAndWrite, startEmbedding, writeEmbedded, type Outcomes } from './embed-write'
import { yieldToEventLoop } from '../time-slices'
import { settleFailedJob } from './failure'
import { startHeartbeat, type Heartbeat } from './heartbeat'
import { PrepareContext, prepareDocument } from './prepare'
import { afterJobs } from './settled'
import { inSpan, openSpan } from '@/lib/tracing/spans'

export type RunStatus = DatasourceStatus | 'lease_lost'

/** Chunks embedded and written together at most (more when one job has more). */
const MAX_GROUP_CHUNKS = 512

/**
 * Runs claimed jobs to their end, each recording its own outcome and never throwing for its own failure (a single
 * job is a batch of one). A group kind (a web site) runs its own discovery; document kinds go through one pipeline:
 * prepare (extract, content hash, chunk, limit check) → embed and write, together in groups of about
 * MAX_GROUP_CHUNKS chunks. The leases are renewed while the jobs run; a job whose lease is lost writes nothing.
 * `stopSignal` gives unfinished jobs back to the queue.
 */
export async function runJobs(claimed: Datasource[], workerId: string, options: RunOptions): Promise<RunStatus[]> {
  return (await prepareJobs(claimed, workerId, options)).write()
}

export interface RunOptions { leaseMs: number; stopSignal?: AbortSignal }

/** A batch prepared up to its last group's embedding and write, which `write` starts (once); it resolves with the statuses and never rejects. */
export interface PreparedJobs { write(): Promise<RunStatus[]> }

/**
 * runJobs in two steps: every job prepared (groups of large files embedded and written as they fill), then `write`.
 * A worker lane claims its next batch, and reads what preparing it needs, before it writes the batch prepared
 * before it (lib/ingest/worker.ts), so that reading and chunking documents (this thread) overlap the embeddings
 * requests and the database's writes, even on the embedded database, whose one connection a write holds (issue 28).
 * `context`: what preparing reads from the database, when the caller read it already (PrepareContext.load).
 */
export async function prepareJobs(claimed: Datasource[], workerId: string, options: RunOptions, context?: PrepareContext): Promise<PreparedJobs> {
  // traced (issue 27): one `sync.run` span per batch; a job's preparation, the embeddings and the writes inside it
  const span = openSpan('sync.run', { 'sync.jobs': claimed.length })
  const prepared = await span.run(() => prepareBatch(claimed, workerId, options, context))
  let finished: Promise<RunStatus[]> | undefined
  return { write: () => (finished ??= span.run(() => prepared.write()).then(statuses => (span.end(), statuses))) }
}

async function prepareBatch(claimed: Datasource[], workerId: string, options: RunOptions, context?: PrepareContext): Promise<PreparedJobs> {
  const started = Date.now()
  // one run per job, even if a caller passes one twice: two writes of one job in a transaction would double its chunks
  const jobs = [...new Map(claimed.map(j => [j.id, j])).values()]
  const statuses = new Map<string, RunStatus>()
  const written = new Map<string, number>()
  const beat = startHeartbeat(() => jobs.filter(j => !statuses.has(j.id)).map(j => j.id), workerId, options.leaseMs, options.stopSignal)
  const outcomes: Outcomes = {
    record: (job, status, chunks) => {
      statuses.set(job.id, status)
      if (status === 'synched' && chunks !== undefined) written.set(job.id, chunks)
    },
    fail: async (job, error) => void statuses.set(job.id, await settleFailedJob(job, workerId, beat.reasonFor(job.id, error), error)),
  }
  let writeLast: () => Promise<void>
  try {
    writeLast = (await prepareAll(jobs, workerId, options.leaseMs, beat, outcomes, context)).writeLast
  } catch (error) {
    writeLast = () => Promise.reject(error)
  }
  const write = async () => {
    try {
      await writeLast()
    } catch (error) {
      // the run as a whole stopped (the worker is stopping, the database failed): every open job ends as its own failure would
      for (const job of jobs) if (!statuses.has(job.id)) await outcomes.fail(job, error)
    } finally {
      beat.stop()
    }
    await afterJobs(jobs, statuses, new Set([...written.keys()].filter(id => statuses.get(id) === 'synched')))
    await finish(jobs, statuses, written, started)
    return claimed.map(j => statuses.get(j.id) ?? 'lease_lost')
  }
  return { write }
}

/**
 * Every job prepared, each group embedded and written when full while the next is prepared; resolves with
 * `writeLast`, which writes the last group (its embeddings requested already) once the one before it is written
 * (and throws only when the run as a whole stopped).
 */
async function prepareAll(jobs: Datasource[], workerId: string, leaseMs: number, beat: Heartbeat, outcomes: Outcomes, loaded?: PrepareContext): Promise<{ writeLast: () => Promise<void> }> {
  const context = loaded ?? (await PrepareContext.load(jobs, embeddingsProvider()))
  const provider = context.provider
  let group: ChunkWrite[] = []
  // one group embedded and written while the next is prepared (a batch of large files writes several)
  let writing: Promise<void> = Promise.resolve()
  const flush = async () => {
    await writing
    const ready = group
    group = []
    writing = ready.length > 0 ? embedAndWrite(ready, provider, workerId, beat, outcomes) : Promise.resolve()
    writing.catch(() => {}) // awaited by the next flush or writeLast; not an unhandled rejection meanwhile
    context.writing(ready, writing)
  }
  for (const [i, job] of jobs.entries()) {
    // a turn of the event loop between documents: preparing a document is this thread's CPU alone (its original came
    // with the claim), so without it a batch's preparation (~0.3 s for 256 abstracts) would hold back every reply the
    // database thread sends meanwhile, and with them each step of the other batches' writes (issue 28: the database
    // sat idle for the first 1.7 s of a drain)
    await yieldToEventLoop()
    try {
      beat.signal.throwIfAborted()
      // every log line of the job's run names the datasource and the attempt
      const prepared = await withLogContext({ datasourceId: job.id, attempt: job.attempts }, () =>
        inSpan('sync.job', { 'datasource.type': job.type, 'sync.attempt': job.attempts }, () => runUntilWrite(job, workerId, { leaseMs, signal: beat.signal }, context)),
      )
      if ('done' in prepared) outcomes.record(job, prepared.done)
      else group.push(prepared.write)
    } catch (error) {
      await outcomes.fail(job, error)
    }
    // a group's chunks and embeddings stay in memory until written: large files are written as they come (the last
    // group by writeLast, which the lane calls once it has claimed its next batch)
    if (i < jobs.length - 1 && group.reduce((n, w) => n + w.content.chunks.length, 0) >= MAX_GROUP_CHUNKS) await flush()
  }
  // the last group's embeddings are requested now, not when the lane writes the batch: they need no database, and the
  // lane writes only once it has claimed its next batch, a claim that waits for the writes under way on the embedded
  // database (issue 28: the embeddings were requested only then, the database idle while they came)
  const last = group
  const embedding = startEmbedding(last, provider, beat, outcomes)
  const writeLast = async () => {
    await writing
    writing = last.length > 0 ? writeEmbedded(embedding, workerId, beat, outcomes) : Promise.resolve()
    context.writing(last, writing)
    await writing
  }
  return { writeLast }
}

/** A job up to the point where it has chunks to write, or to its end when it has none to write (a group, unchanged content, a limit). */
async function runUntilWrite(job: Datasource, workerId: string, ctx: { leaseMs: number; signal: AbortSignal }, context: PrepareContext) {
  if (job.attempts > config().WORKER_MAX_ATTEMPTS) {
    // claimed again after its lease expired, too many times: something kills the worker on this datasource
    throw permanentError(`The synchronisation was interrupted ${job.attempts - 1} times (the worker stopped while running it)`)
  }
  const kind = kindOf(job.type)
  if (kind.sync === 'group') return { done: (await kind.syncGroup(job, { workerId, ...ctx })) ?? ('running' as const) }
  return prepareDocument(job, kind, workerId, ctx.signal, context)
}

/** The groups of finished children sum up their status again; one log line a job. */
async function finish(jobs: Datasource[], statuses: Map<string, RunStatus>, written: Map<string, number>, started: number): Promise<void> {
  const ms = Date.now() - started
  for (const groupId of new Set(jobs.flatMap(j => (j.groupId ? [j.groupId] : [])))) {
    const status = await refreshGroupStatus(groupId).catch(error => void logger.error('group status refresh failed', { groupId, error }))
    // the site's synchronisation ended with this page: its next scheduled refresh counts from now
    if (status && status !== 'running') await scheduleNextRefresh([groupId], REFRESHABLE_TYPES).catch(error => logger.error('refresh not scheduled', { groupId, error }))
  }
  for (const job of jobs) {
    metrics().syncDuration.observe({ kind: job.type, outcome: statuses.get(job.id) ?? 'lease_lost' }, ms / 1000)
    logger.info('datasource job finished', { datasourceId: job.id, type: job.type, status: statuses.get(job.id), chunks: written.get(job.id) ?? job.nbChunks, attempt: job.attempts, batch: jobs.length, ms })
  }
}
