import { getDatabase } from '@/lib/db/client'
import type { SqlStatements } from '@/lib/db/sql-driver'
import type { Datasource } from '@/lib/generated/prisma/client'
import type { ChunkDraft } from '../sections'
import { yieldToEventLoop } from '../time-slices'
import { admitTokens, chunkRows, insertChunkRows, lockHeldJobs, lockStoredTokens, markSynched } from './chunk-rows'
import { settle, type HeldValidators } from './settle'
import { writeInSteps, writesInSteps } from './write-steps'

// Rows per INSERT statement at most: 11 parameters each, well under the protocol's 65,535. A group's rows go in as
// few statements as that allows, of even sizes: each statement updates the BM25 statistics once per distinct lexeme
// of its rows, so a short tail statement (500 + 12 rows) would cost almost as much as a full one.
const ROWS_PER_INSERT = 1000

export interface SyncedContent {
  chunks: ChunkDraft[]
  /** One per chunk, or null without an embeddings provider (then the column stays NULL). */
  embeddings: number[][] | null
  textSize: number
  contentHash: string
  /** A new name for the datasource (a discovered page's title), else it keeps its own. */
  name?: string | null
}

export interface ChunkWrite {
  job: Datasource
  content: SyncedContent
  /** The organization's stored-token limit. */
  limit: number
  /** HTTP validators of the content (a web page), kept with it for the next conditional fetch. */
  validators?: HeldValidators
}

export type WriteOutcome = { status: 'synched' } | { status: 'usage_limit_reached'; message: string } | { status: 'lease_lost' }

type Tx = SqlStatements

/**
 * Replaces the chunks of several claimed jobs (one job is a batch of one) and marks them synched, in one short
 * transaction with a handful of statements whatever their number (the embeddings were computed before it): the
 * leases checked (FOR UPDATE), the organizations locked and their stored tokens summed once, old chunks deleted and
 * new ones inserted together, the datasources marked synched in one UPDATE. Each job keeps its own outcome: one
 * whose lease was lost writes nothing (a slower worker whose lease expired must not write a second copy); one that
 * would pass its organization's limit (counting the jobs before it) ends usage_limit_reached and keeps its previous
 * chunks. Throws on a database error, and then nothing is written. A large synchronisation (more than a step of
 * chunks to write or to replace) is written in steps instead (write-steps.ts), so that it never holds the embedded
 * database for seconds.
 */
export async function writeChunks(workerId: string, items: ChunkWrite[]): Promise<WriteOutcome[]> {
  const database = await getDatabase()
  const stepwise = items.map(writesInSteps)
  const together = items.filter((_, i) => !stepwise[i])
  const written = together.length > 0 ? await database.sql.transaction(tx => writeInTransaction(tx, workerId, together)) : []
  const outcomes: WriteOutcome[] = []
  for (const [i, item] of items.entries()) outcomes.push(stepwise[i] ? await writeInSteps(database.sql, workerId, item) : written.shift()!)
  // the planner's statistics of the new chunks (embedded database), before the next period of its maintenance
  if (outcomes.some(o => o.status === 'synched')) database.chunksChanged?.()
  return outcomes
}

async function writeInTransaction(tx: Tx, workerId: string, items: ChunkWrite[]): Promise<WriteOutcome[]> {
  const held = await lockHeldJobs(tx, workerId, items.map(i => i.job.id))
  const stored = await lockStoredTokens(tx, [...new Set(items.filter(i => held.has(i.job.id)).map(i => i.job.organizationId))])
  const outcomes: WriteOutcome[] = []
  const writes: ChunkWrite[] = []
  for (const item of items) {
    const previous = held.get(item.job.id)
    if (previous === undefined) {
      outcomes.push({ status: 'lease_lost' })
      continue
    }
    const message = admitTokens(item, stored, previous)
    if (message !== null) {
      await settle.usageLimitReached(item.job.id, workerId, message, tx)
      outcomes.push({ status: 'usage_limit_reached', message })
      continue
    }
    writes.push(item)
    outcomes.push({ status: 'synched' })
  }
  if (writes.length > 0) {
    await replaceRows(tx, writes)
    await markSynched(tx, writes)
  }
  return outcomes
}

async function replaceRows(tx: Tx, writes: ChunkWrite[]): Promise<void> {
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = ANY($1::text[])`, [writes.map(w => w.job.id)])
  const rows = chunkRows(writes)
  const size = Math.ceil(rows.length / Math.ceil(rows.length / ROWS_PER_INSERT))
  for (let start = 0; start < rows.length; start += size) {
    await insertChunkRows(tx, rows.slice(start, start + size))
    // between statements the web server answers what needs no database (the embedded one queues the rest)
    if (start + size < rows.length) await yieldToEventLoop()
  }
}

