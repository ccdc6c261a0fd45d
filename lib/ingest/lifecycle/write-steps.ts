// A large first synchronisation (a big file's first ingest: thousands of chunks) written in short transactions.
//
// Written in one transaction, its INSERTs held the embedded database, which has one session, for as long as they
// ran: ~2 ms a chunk of ~2 KB on PGlite (the text's tsvector, its GIN entries, the BM25 statistics), 7 s for a 7 MB
// text, while every question waited. In steps of STEP_ROWS chunks (SHARED_STEP_ROWS while others use the database),
// each its own transaction, a question waits for one step at most. Nothing shows before the end: the chunks of a datasource being synched for the first time are outside every search
// (lib/search/scope.ts) until the last step marks it synched. A re-synchronisation keeps its one transaction, since its
// previous chunks must stay searchable until the new ones replace them at once (write-chunks.ts).
import type { SqlDriver, SqlStatements } from '@/lib/db/sql-driver'
import { admitTokens, chunkRows, insertChunkRows, lockHeldJobs, lockStoredTokens, markSynched, tokensOf } from './chunk-rows'
import { settle } from './settle'
import type { ChunkWrite, WriteOutcome } from './write-chunks'

// Chunks a step inserts: ~0.2 s of the embedded database for ~2 KB chunks (docs/reliability.md), and few enough
// statements that the BM25 statistics' per-statement work stays small beside the rows'
export const STEP_ROWS = 100
// ... and after others' statements were seen waiting: a request arriving during a step waits for it (~50 ms instead
// of ~200), for more statements a chunk (the BM25 statistics' work a statement) while the database is shared
export const SHARED_STEP_ROWS = 25

// Between steps the writer makes way: a request's statements come one after another, each sent when the one before
// answered, so the next step waits until the embedded database has had no statement for QUIET_MS, or for as long as
// the step took (the write keeps at least half the database when others keep it busy)
const QUIET_MS = 10

type Tx = SqlStatements

/** Whether a write goes in steps: a first synchronisation (no chunks searchable yet) of more than one step. */
export const writesInSteps = (item: ChunkWrite) => item.job.lastSynch === null && item.content.chunks.length > STEP_ROWS

/**
 * Writes a first synchronisation in steps: the lease checked, any chunks of an interrupted attempt deleted, the
 * organization's stored tokens and its limit checked and the new content's tokens reserved (the datasource's
 * nbTokens, which the next writer of the organization counts); then STEP_ROWS chunks a transaction (SHARED_STEP_ROWS after
 * others' statements were seen), each checking the lease; the last
 * marks the job synched. A lost lease stops it (the next owner deletes what was written); a database error deletes
 * what was written (while the lease is held) and throws.
 */
export async function writeInSteps(sql: SqlDriver, workerId: string, item: ChunkWrite): Promise<WriteOutcome> {
  const begun = await sql.transaction(tx => begin(tx, workerId, item))
  if (begun.status !== 'synched') return begun
  const rows = chunkRows([item])
  try {
    for (let start = 0, size = STEP_ROWS; start < rows.length; ) {
      const end = Math.min(rows.length, start + size)
      const last = end === rows.length
      const began = performance.now()
      const held = await sql.transaction(async tx => {
        if (!(await holds(tx, workerId, item))) return false
        await insertChunkRows(tx, rows.slice(start, end))
        if (last) await markSynched(tx, [item])
        return true
      })
      if (!held) return { status: 'lease_lost' }
      start = end
      if (!last) size = (await makeWay(sql, performance.now() - began)) ? SHARED_STEP_ROWS : STEP_ROWS
    }
  } catch (error) {
    await sql.transaction(tx => abandon(tx, workerId, item)).catch(() => undefined)
    throw error
  }
  return { status: 'synched' }
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Waits until the embedded database has had no statement but this writer's for QUIET_MS, at most `stepMs`; whether
 * others' statements were seen meanwhile.
 */
async function makeWay(sql: SqlDriver, stepMs: number): Promise<boolean> {
  if (!sql.activity) return false
  const until = performance.now() + stepMs
  let quietSince = performance.now()
  let shared = false
  while (performance.now() < until) {
    if (sql.activity().statementsAt > 0) {
      quietSince = performance.now()
      shared = true
    } else if (performance.now() - quietSince >= QUIET_MS) {
      break
    }
    await sleep(2)
  }
  return shared
}

async function begin(tx: Tx, workerId: string, item: ChunkWrite): Promise<WriteOutcome> {
  const previous = (await lockHeldJobs(tx, workerId, [item.job.id])).get(item.job.id)
  if (previous === undefined) return { status: 'lease_lost' }
  // what an interrupted attempt wrote: never searched, and not kept whatever this one ends in
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = $1`, [item.job.id])
  const stored = await lockStoredTokens(tx, [item.job.organizationId])
  const message = admitTokens(item, stored, previous)
  if (message !== null) {
    await settle.usageLimitReached(item.job.id, workerId, message, tx)
    return { status: 'usage_limit_reached', message }
  }
  await tx.query(`UPDATE "Datasource" SET "nbTokens" = $2 WHERE id = $1`, [item.job.id, tokensOf(item.content)])
  return { status: 'synched' }
}

const holds = async (tx: Tx, workerId: string, item: ChunkWrite) => (await lockHeldJobs(tx, workerId, [item.job.id])).has(item.job.id)

/** Deletes what a failed write wrote and its reservation, if the job is still this worker's. */
async function abandon(tx: Tx, workerId: string, item: ChunkWrite): Promise<void> {
  if (!(await holds(tx, workerId, item))) return
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = $1`, [item.job.id])
  await tx.query(`UPDATE "Datasource" SET "nbTokens" = 0 WHERE id = $1`, [item.job.id])
}
