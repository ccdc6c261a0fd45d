import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { ensureVectorIndex } from '@/lib/db/vector-index'
import { embeddingsProvider } from '@/lib/embeddings/provider'
import { sleep, startBackgroundLanes, type Housekeeping } from './background'
import { messageOf } from './errors'
import { BATCHED_TYPES } from './kinds'
import { claimBatchOf } from './lifecycle'
import { PrepareContext } from './pipeline/prepare'
import { prepareJobs } from './pipeline/run-jobs'
import { LaneBatches, type ClaimedBatch } from './lane-batches'
import { runHeartbeatLane } from './worker-heartbeat'

/**
 * Jobs claimed and run together at most. A batch pays a dozen statements whatever its size, and its chunk INSERT
 * updates the BM25 statistics once per distinct (datastore, lexeme) of the statement, and lexemes repeat across
 * documents: on one-chunk documents, 256 a batch cost ~0.6 ms of CPU a chunk less than 32 did (docs/benchmarks-history.md,
 * "Ingest: what the BM25 statistics cost a chunk write"). Large files are still written in groups (run-jobs.ts).
 */
export const JOB_BATCH_SIZE = 256

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
 * The sync worker: `concurrency` lanes, each claiming the next due datasource (with more of batched kinds to run
 * together, see claimAndRun) and running it, polling every 500 ms when idle and at once when busy. One per process
 * (a second call returns the running one).
 */
export function startWorker(options: { concurrency: number; pollMs?: number; housekeeping?: Housekeeping }): SyncWorker {
  if (holder.__syncWorker) return holder.__syncWorker
  const workerId = newWorkerId()
  const pollMs = options.pollMs ?? IDLE_POLL_MS
  const stopClaiming = new AbortController()
  const stopJobs = new AbortController()

  const indexReady = ensureEmbeddingsIndex()
  const lane = async () => {
    await indexReady
    const batches = new LaneBatches(workerId, claimed => prepareJobs(claimed.jobs, workerId, { leaseMs: leaseMs(), stopSignal: stopJobs.signal }, claimed.context), JOB_BATCH_SIZE)
    while (!stopClaiming.signal.aborted) {
      let busy = false
      try {
        busy = await batches.next(limit => claimBatch(workerId, leaseMs(), limit))
      } catch (error) {
        logger.error('sync worker lane failed', { workerId, error: messageOf(error) })
      }
      if (!busy) await sleep(pollMs, stopClaiming.signal)
    }
    await batches.end()
  }
  const lanes = Promise.all([...Array.from({ length: Math.max(1, options.concurrency) }, lane), startBackgroundLanes(workerId, stopClaiming.signal, stopJobs.signal, options.housekeeping), runHeartbeatLane(workerId, stopClaiming.signal)])
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

/** Stops this process's worker, if one runs (see SyncWorker.stop). */
export async function stopWorker(graceMs?: number): Promise<void> {
  await holder.__syncWorker?.stop(graceMs)
}

/**
 * Tests and benchmarks: claims and runs due jobs until none is left (pages a site discovers included), with
 * `concurrency` lanes; returns how many jobs ran. Jobs waiting for a retry backoff are not due.
 */
export async function drainQueue(options: { concurrency?: number; workerId?: string; leaseMs?: number } = {}): Promise<number> {
  const workerId = options.workerId ?? newWorkerId()
  const lease = options.leaseMs ?? leaseMs()
  let processed = 0
  await ensureEmbeddingsIndex()
  const lane = async () => {
    const batches = new LaneBatches(workerId, claimed => prepareJobs(claimed.jobs, workerId, { leaseMs: lease }, claimed.context), JOB_BATCH_SIZE)
    while (await batches.next(async limit => {
      const claimed = await claimBatch(workerId, lease, limit)
      processed += claimed?.jobs.length ?? 0
      return claimed
    }));
    await batches.end()
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, lane))
  return processed
}

/**
 * Claims the next due job, with up to `limit` − 1 more when it is of a batched kind (content at hand: text, file), and
 * reads what preparing them needs (their datastores, limits and stored tokens). Null when nothing was due.
 */
async function claimBatch(workerId: string, lease: number, limit: number): Promise<ClaimedBatch | null> {
  const jobs = await claimBatchOf(workerId, lease, limit, BATCHED_TYPES)
  if (jobs.length === 0) return null
  // read again by the batch itself when this fails: a failure there settles each job as failed
  return { jobs, context: await PrepareContext.load(jobs, embeddingsProvider()).catch(() => undefined) }
}

/** The vector index of the configured embeddings' size, made before the first chunk is written (not by the first query). */
async function ensureEmbeddingsIndex(): Promise<void> {
  const provider = embeddingsProvider()
  if (!provider) return
  try {
    await ensureVectorIndex((await getDatabase()).sql, provider.dimensions)
  } catch (error) {
    logger.warn('vector index not ensured at worker start', { error: messageOf(error) })
  }
}
