import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { messageOf } from './errors'
import type { PrepareContext } from './pipeline/prepare'
import type { PreparedJobs } from './pipeline/run-jobs'

/** A claimed batch, with what preparing it reads from the database (read with the claim; undefined when that failed). */
export interface ClaimedBatch { jobs: Datasource[]; context?: PrepareContext }

/** Batch writes under way in one lane at most: with a slow embeddings provider, a batch's request goes while the one before is answered. */
const WRITES_UNDER_WAY = 2

/**
 * Jobs a lane claims first, and again after a claim found fewer than it asked for: the database has nothing to write
 * until a batch is prepared, and preparing 256 abstracts takes this thread ~0.3 s (more while its code is still cold);
 * so a lane starts small and doubles each full claim (16, 32, 64 … up to its most), and the database writes the first
 * documents while the next ones are prepared (issue 28: the first chunk INSERT of a drain of 1,500 abstracts came
 * 1.6 s in, the database idle until then).
 */
const FIRST_CLAIM = 16

/**
 * A worker lane's batches, one prepared while those before it are written: the lane claims its next batch (and
 * reads what preparing it needs) first, then starts writing the batch it prepared last, then prepares the new one
 * meanwhile. On the embedded database, whose one connection a write transaction holds, a claim sent after the write
 * would wait for it, and reading and chunking documents (this thread) would never overlap the database's work
 * (issue 28: each side waited for the other). The lane claims again only when fewer than WRITES_UNDER_WAY writes are
 * under way, so it holds at most those and the batch it prepares, and a batch it claims is prepared at once (its
 * leases renewed from then on).
 */
export class LaneBatches {
  private prepared: PreparedJobs | null = null
  private writes = new Set<Promise<unknown>>()
  private claimSize = FIRST_CLAIM

  constructor(
    private workerId: string,
    private prepare: (claimed: ClaimedBatch) => Promise<PreparedJobs>,
    /** Jobs a claim may take at most (the lane starts with fewer, see FIRST_CLAIM). */
    private maxClaim = FIRST_CLAIM,
  ) {}

  /** Claims (up to `limit` jobs) and prepares the next batch, writing the previous one meanwhile (false when none was due). */
  async next(claim: (limit: number) => Promise<ClaimedBatch | null>): Promise<boolean> {
    while (this.writes.size >= WRITES_UNDER_WAY) await Promise.race(this.writes)
    let claimed: ClaimedBatch | null
    const limit = Math.min(this.claimSize, this.maxClaim)
    try {
      claimed = await claim(limit)
    } finally {
      this.startWriting() // the batch prepared before is written whatever happens to the next claim
    }
    // a full claim doubles the next one; one that found fewer jobs (the queue ran dry) starts over small
    this.claimSize = claimed && claimed.jobs.length >= limit ? limit * 2 : FIRST_CLAIM
    if (!claimed) {
      await this.ended()
      return false
    }
    this.prepared = await this.prepare(claimed)
    return true
  }

  /** Writes the batch prepared last; resolves once every batch of the lane has ended. */
  async end(): Promise<void> {
    this.startWriting()
    await this.ended()
  }

  private ended(): Promise<unknown> {
    return Promise.all(this.writes)
  }

  private startWriting(): void {
    const prepared = this.prepared
    if (!prepared) return
    this.prepared = null
    const written: Promise<unknown> = prepared
      .write()
      .catch(error => logger.error('sync batch failed', { workerId: this.workerId, error: messageOf(error) }))
      .finally(() => this.writes.delete(written))
    this.writes.add(written)
  }
}
