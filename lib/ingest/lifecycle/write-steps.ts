// A large synchronisation (a big file's ingest: thousands of chunks) written in short transactions.
//
// Written in one transaction, its INSERTs held the embedded database, which has one session, for as long as they
// ran: ~2 ms a chunk of ~2 KB on PGlite (the text's tsvector, its GIN entries, the BM25 statistics), 7 s for a 7 MB
// text, while every question waited. In steps of STEP_ROWS chunks (SHARED_STEP_ROWS while others use the database),
// each its own transaction, a question waits for one step at most. Nothing shows before the end: the chunks of a
// datasource being synched for the first time are outside every search (lib/search/scope.ts) until the last step
// marks it synched; a re-synchronisation writes the datasource's next generation, hidden until the last step swaps it
// with the current one, whose chunks are then deleted in steps while hidden (write-generations.ts). Searches see the
// old content, then the new, never both or a part.
import type { SqlDriver, SqlStatements } from '@/lib/db/sql-driver'
import { admitTokens, chunkRows, insertChunkRows, lockHeldJobs, lockStoredTokens, markSynched, tokensOf, type ChunkRow } from './chunk-rows'
import { settle } from './settle'
import { holds, nextStepSize, STEP_ROWS } from './step-pacing'
import { abandonGeneration, beginGeneration, deleteHiddenInSteps, finishGeneration, swapGenerations, type Begun } from './write-generations'
import type { ChunkWrite, WriteOutcome } from './write-chunks'

type Tx = SqlStatements

export { SHARED_STEP_ROWS, STEP_ROWS } from './step-pacing'

/** Whether a write goes in steps: more than one step of chunks to write, or to replace. */
export const writesInSteps = (item: ChunkWrite) =>
  item.content.chunks.length > STEP_ROWS || (item.job.lastSynch !== null && item.job.nbChunks > STEP_ROWS)

const LEASE_LOST: WriteOutcome = { status: 'lease_lost' }

/**
 * Writes a synchronisation in steps. A first one: the lease checked, any chunks of an interrupted attempt deleted,
 * the organization's stored tokens and its limit checked and the new content's tokens reserved (the datasource's
 * nbTokens, which the next writer of the organization counts); then STEP_ROWS chunks a transaction (SHARED_STEP_ROWS
 * after others' statements were seen), each checking the lease; the last marks the job synched. A re-synchronisation
 * (write-generations.ts): what an interrupted one left hidden deleted in steps, the same checks, the next generation
 * written hidden, swapped with the current one by the last step, the old one deleted in steps, then the job marked
 * synched. A lost lease stops it (the next owner deletes what was left); a database error deletes what was written
 * (while the lease is held) and throws.
 */
export async function writeInSteps(sql: SqlDriver, workerId: string, item: ChunkWrite): Promise<WriteOutcome> {
  const resync = item.job.lastSynch !== null
  if (resync && !(await deleteHiddenInSteps(sql, workerId, item.job.id))) return LEASE_LOST
  const begun = await sql.transaction(tx => (resync ? beginGeneration(tx, workerId, item) : begin(tx, workerId, item)))
  if (begun.outcome.status !== 'synched') return begun.outcome
  let swapped = false
  try {
    const last = resync ? swapGenerations : markSynched
    if (!(await insertInSteps(sql, workerId, item, chunkRows([item], begun.generation), last))) return LEASE_LOST
    if (!resync) return { status: 'synched' }
    swapped = true
    if (!(await deleteHiddenInSteps(sql, workerId, item.job.id))) return LEASE_LOST
    return (await sql.transaction(tx => finishGeneration(tx, workerId, item))) ? { status: 'synched' } : LEASE_LOST
  } catch (error) {
    const undo = (tx: Tx) => (resync ? abandonGeneration(tx, workerId, item, swapped ? tokensOf(item.content) : begun.previous) : abandon(tx, workerId, item))
    await sql.transaction(undo).catch(() => undefined)
    throw error
  }
}

/** The rows in steps, each checking the lease; `last` runs in the last step's transaction. False when the lease was lost. */
async function insertInSteps(sql: SqlDriver, workerId: string, item: ChunkWrite, rows: ChunkRow[], last: (tx: Tx, items: ChunkWrite[]) => Promise<void>): Promise<boolean> {
  for (let start = 0, size = STEP_ROWS; start < rows.length; ) {
    const end = Math.min(rows.length, start + size)
    const began = performance.now()
    const held = await sql.transaction(async tx => {
      if (!(await holds(tx, workerId, item.job.id))) return false
      await insertChunkRows(tx, rows.slice(start, end))
      if (end === rows.length) await last(tx, [item])
      return true
    })
    if (!held) return false
    start = end
    if (start < rows.length) size = await nextStepSize(sql, performance.now() - began)
  }
  return true
}

async function begin(tx: Tx, workerId: string, item: ChunkWrite): Promise<Begun> {
  const previous = (await lockHeldJobs(tx, workerId, [item.job.id])).get(item.job.id)
  if (previous === undefined) return { outcome: LEASE_LOST, generation: 0, previous: 0 }
  // what an interrupted attempt wrote: never searched, and not kept whatever this one ends in
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = $1`, [item.job.id])
  const stored = await lockStoredTokens(tx, [item.job.organizationId])
  const message = admitTokens(item, stored, previous)
  const generation = item.job.contentGeneration
  if (message !== null) {
    await settle.usageLimitReached(item.job.id, workerId, message, tx)
    return { outcome: { status: 'usage_limit_reached', message }, generation, previous }
  }
  await tx.query(`UPDATE "Datasource" SET "nbTokens" = $2 WHERE id = $1`, [item.job.id, tokensOf(item.content)])
  return { outcome: { status: 'synched' }, generation, previous }
}

/** Deletes what a failed first write wrote and its reservation, if the job is still this worker's. */
async function abandon(tx: Tx, workerId: string, item: ChunkWrite): Promise<void> {
  if (!(await holds(tx, workerId, item.job.id))) return
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = $1`, [item.job.id])
  await tx.query(`UPDATE "Datasource" SET "nbTokens" = 0 WHERE id = $1`, [item.job.id])
}
