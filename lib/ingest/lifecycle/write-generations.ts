// A large re-synchronisation in steps (write-steps.ts): its new chunks are the datasource's next generation.
//
// Written in one transaction, the old chunks' DELETE and the new ones' INSERTs held the embedded database (one session)
// for seconds while every question waited. Searches see one generation of a datasource's chunks, its
// "contentGeneration", and never its "hiddenGeneration" (lib/search/scope.ts): the new chunks are written hidden,
// the last step swaps the two numbers (searches switch from the whole old content to the whole new one in one
// commit), and the old chunks, hidden now, are deleted in steps before the job is marked synched. Every chunk of a
// datasource is of one of the two generations; whatever an interrupted attempt left hidden is deleted by the next
// attempt before it begins, or by the job's ending (settle.ts).
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver, SqlStatements } from '@/lib/db/sql-driver'
import type { Datasource } from '@/lib/generated/prisma/client'
import { admitTokens, lockHeldJobs, lockStoredTokens, markSynched, tokensOf } from './chunk-rows'
import { settle, type HeldValidators } from './settle'
import { holds, makeWay, STEP_ROWS } from './step-pacing'
import type { ChunkWrite, WriteOutcome } from './write-chunks'

type Tx = SqlStatements

/** How a write in steps began: its outcome so far, the generation its chunks are written as, the tokens they replace. */
export interface Begun {
  outcome: WriteOutcome
  generation: number
  previous: number
}

/**
 * The checks of a first write (lease, stored tokens against the limit), then the next generation hidden and the larger
 * of the old and new content's tokens reserved: both are stored until the old is deleted.
 */
export async function beginGeneration(tx: Tx, workerId: string, item: ChunkWrite): Promise<Begun> {
  const previous = (await lockHeldJobs(tx, workerId, [item.job.id])).get(item.job.id)
  if (previous === undefined) return { outcome: { status: 'lease_lost' }, generation: 0, previous: 0 }
  const stored = await lockStoredTokens(tx, [item.job.organizationId])
  const message = admitTokens(item, stored, previous)
  if (message !== null) {
    await settle.usageLimitReached(item.job.id, workerId, message, tx)
    return { outcome: { status: 'usage_limit_reached', message }, generation: 0, previous }
  }
  const [row] = await tx.query<{ generation: number }>(
    `UPDATE "Datasource" SET "nbTokens" = GREATEST("nbTokens", $2), "hiddenGeneration" = "contentGeneration" + 1
      WHERE id = $1 RETURNING "hiddenGeneration" AS generation`,
    [item.job.id, tokensOf(item.content)],
  )
  return { outcome: { status: 'synched' }, generation: row.generation, previous }
}

/**
 * The last step's: the new generation searched, the old one hidden (SET reads the row as it was), and the counts and
 * the hash of what is searched now (the job is marked synched once the old chunks are deleted; run again after an
 * interruption, it finds its content unchanged: settleUnchanged).
 */
export async function swapGenerations(tx: Tx, items: ChunkWrite[]): Promise<void> {
  for (const { job, content } of items) {
    await tx.query(
      `UPDATE "Datasource" SET "contentGeneration" = "hiddenGeneration", "hiddenGeneration" = "contentGeneration",
              "nbChunks" = $2, "textSize" = $3, "contentHash" = $4
        WHERE id = $1 AND "hiddenGeneration" IS NOT NULL`,
      [job.id, content.chunks.length, content.textSize, content.contentHash],
    )
  }
}

/**
 * A job whose content is what searches see (its hash, or the web server's 304): what an interrupted
 * re-synchronisation left hidden deleted in steps, then the job settled unchanged. False when the lease was lost.
 */
export async function settleUnchanged(job: Datasource, workerId: string, validators?: HeldValidators): Promise<boolean> {
  if (job.hiddenGeneration !== null && !(await deleteHiddenInSteps((await getDatabase()).sql, workerId, job.id))) return false
  return settle.unchanged(job.id, workerId, validators)
}

/**
 * Deletes the chunks of the job's hidden generation, a step at a time while this worker holds the job, then forgets
 * the hidden generation. False when the lease was lost. Steps of STEP_ROWS whether or not others wait: a DELETE's
 * cost on the embedded database is mostly the BM25 statistics' work a statement (25 chunks ~55 ms, 100 ~80 ms, 400
 * ~160 ms on the 2026-11-29 Xeon), so smaller steps would only make the deletion longer.
 */
export async function deleteHiddenInSteps(sql: SqlDriver, workerId: string, jobId: string): Promise<boolean> {
  const size = STEP_ROWS
  for (;;) {
    const began = performance.now()
    const step = await sql.transaction(async tx => {
      if (!(await holds(tx, workerId, jobId))) return 'lease_lost'
      const deleted = await tx.query(
        `DELETE FROM "Chunk" WHERE id IN (
           SELECT c.id FROM "Chunk" c JOIN "Datasource" d ON d.id = c."datasourceId" AND c.generation = d."hiddenGeneration"
            WHERE d.id = $1 LIMIT $2
         ) RETURNING 1`,
        [jobId, size],
      )
      if (deleted.length === size) return 'more'
      await tx.query(`UPDATE "Datasource" SET "hiddenGeneration" = NULL WHERE id = $1`, [jobId])
      return 'done'
    })
    if (step !== 'more') return step === 'done'
    await makeWay(sql, performance.now() - began)
  }
}

/** The job marked synched with its new content, if still this worker's. */
export async function finishGeneration(tx: Tx, workerId: string, item: ChunkWrite): Promise<boolean> {
  if (!(await holds(tx, workerId, item.job.id))) return false
  await markSynched(tx, [item])
  return true
}

/**
 * After a database error: the hidden generation's chunks deleted (the new ones before the swap, what is left of the
 * old after it) and the tokens of the content searched kept, if the job is still this worker's.
 */
export async function abandonGeneration(tx: Tx, workerId: string, item: ChunkWrite, searchedTokens: number): Promise<void> {
  if (!(await holds(tx, workerId, item.job.id))) return
  await tx.query(
    `DELETE FROM "Chunk" c USING "Datasource" d WHERE d.id = $1 AND c."datasourceId" = d.id AND c.generation = d."hiddenGeneration"`,
    [item.job.id],
  )
  await tx.query(`UPDATE "Datasource" SET "hiddenGeneration" = NULL, "nbTokens" = $2 WHERE id = $1`, [item.job.id, searchedTokens])
}
