import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { messageOf } from './errors'
import type { PrepareContext } from './pipeline/prepare'
import type { PreparedJobs } from './pipeline/run-jobs'

/** A claimed batch, with what preparing it reads from the database (read with the claim; undefined when that failed). */
export interface ClaimedBatch { jobs: Datasource[]; context?: PrepareContext }

/**
 * A worker lane's batches, one prepared while the one before it is written: the lane claims its next batch (and
 * reads what preparing it needs) first, then starts writing the batch it prepared last, then prepares the new one
 * meanwhile. On the embedded database, whose one connection a write transaction holds, a claim sent after the write
 * would wait for it, and reading and chunking documents (this thread) would never overlap the database's work
 * (issue 28: each side waited for the other). One batch is written while the next is prepared; the claim after
 * that waits for the database.
 */
export class LaneBatches {
  private prepared: PreparedJobs | null = null
  private writing: Promise<unknown> = Promise.resolve()

  constructor(
    private workerId: string,
    private prepare: (claimed: ClaimedBatch) => Promise<PreparedJobs>,
  ) {}

  /** Claims and prepares the next batch, writing the previous one meanwhile (false when none was due). */
  async next(claim: () => Promise<ClaimedBatch | null>): Promise<boolean> {
    let claimed: ClaimedBatch | null
    try {
      claimed = await claim()
    } finally {
      this.startWriting() // the batch prepared before is written whatever happens to the next claim
    }
    if (!claimed) {
      await this.writing
      return false
    }
    this.prepared = await this.prepare(claimed)
    return true
  }

  /** Writes the batch prepared last; resolves once every batch of the lane has ended. */
  async end(): Promise<void> {
    this.startWriting()
    await this.writing
  }

  private startWriting(): void {
    const prepared = this.prepared
    if (!prepared) return
    this.prepared = null
    const written = prepared.write().catch(error => logger.error('sync batch failed', { workerId: this.workerId, error: messageOf(error) }))
    this.writing = Promise.all([this.writing, written])
  }
}
