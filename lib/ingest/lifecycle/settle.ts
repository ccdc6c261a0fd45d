import type { HttpValidators } from '../web/fetcher'
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver } from '@/lib/db/sql-driver'
import { NOW_UTC } from './clock'

type Executor = Pick<SqlDriver, 'query'>

// Every ending leaves a job's chunks as searches see them. A datasource never synched holds no tokens: an
// interrupted first synchronisation in steps may have reserved its content's (lib/ingest/lifecycle/write-steps.ts),
// and a job ending without content gives them back. A re-synchronisation in steps interrupted with a generation
// hidden (its new chunks, or its old ones being deleted) reserved the larger of both: what is searched counts again.
const LEFT_AS_SEARCHED = `"nbTokens" = CASE WHEN "lastSynch" IS NULL THEN 0
    WHEN "hiddenGeneration" IS NOT NULL THEN (SELECT COALESCE(sum(c.tokens), 0) FROM "Chunk" c
      WHERE c."datasourceId" = "Datasource".id AND c.generation = "Datasource"."contentGeneration")
    ELSE "nbTokens" END, "hiddenGeneration" = NULL`

// How each ending leaves a job: the only assignments a settle may make ($3, $4: the ending's own values)
const ENDINGS = {
  unchanged: `status = 'synched', "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL,
              "syncOutcome" = 'unchanged', "goneCount" = 0, "httpEtag" = $3, "httpLastModified" = $4, "fetchContext" = $5`,
  error: `status = 'error', "errorMessage" = $3, "nextRunAt" = NULL`,
  gone: `status = 'error', "errorMessage" = $3, "nextRunAt" = NULL, "goneCount" = "goneCount" + 1`,
  usageLimitReached: `status = 'usage_limit_reached', "errorMessage" = $3, "nextRunAt" = NULL`,
  retry: `status = 'pending', "errorMessage" = $3, "nextRunAt" = ${NOW_UTC} + make_interval(secs => $4)`,
  release: `status = 'pending', attempts = GREATEST(attempts - 1, 0), "nextRunAt" = ${NOW_UTC}`,
  awaitChildren: `status = 'running', "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL`,
} as const

type Ending = keyof typeof ENDINGS

/**
 * Ends a job this worker still holds, in one conditional statement that also clears the lease. False (and nothing
 * written) when the lease is no longer ours.
 */
async function settleHeld(ending: Ending, id: string, workerId: string, params: unknown[] = [], executor?: Executor): Promise<boolean> {
  return (await settleHeldRows(ending, id, workerId, params, executor)).length > 0
}

async function settleHeldRows(ending: Ending, id: string, workerId: string, params: unknown[], executor?: Executor) {
  const sql = executor ?? (await getDatabase()).sql
  // a job still never synched keeps no chunk: those an interrupted first synchronisation wrote in steps (never
  // searched, but counted in the datastore's BM25 statistics) go with this ending, as do those of a generation hidden
  // by an interrupted re-synchronisation (`hidden` reads the row as it was: every part of a statement sees one snapshot)
  return sql.query<{ id: string; goneCount: number }>(
    `WITH hidden AS (
       SELECT "hiddenGeneration" AS generation FROM "Datasource" WHERE id = $1
     ), job AS (
       UPDATE "Datasource" SET ${ENDINGS[ending]}, ${LEFT_AS_SEARCHED}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
        WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running' RETURNING id, "goneCount", "lastSynch"
     ), leftovers AS (
       DELETE FROM "Chunk" c USING job
        WHERE c."datasourceId" = job.id AND (job."lastSynch" IS NULL OR c.generation = (SELECT generation FROM hidden))
     )
     SELECT id, "goneCount" FROM job`,
    [id, workerId, ...params],
  )
}

/** The HTTP validators of the content held, with what else its chunks depend on. */
export interface HeldValidators extends HttpValidators {
  /** What else the chunks depend on (chunking, embeddings model, custom id): a 304 stands only if it is unchanged. */
  context?: string
}

/** The endings of a claimed job other than new chunks (lifecycle/write-chunks.ts); each false when the lease was lost. */
export const settle = {
  /** Content unchanged since the last synchronisation: its chunks stand. */
  unchanged: (id: string, workerId: string, validators?: HeldValidators) =>
    settleHeld('unchanged', id, workerId, [validators?.etag ?? null, validators?.lastModified ?? null, validators?.context ?? null]),
  error: (id: string, workerId: string, message: string) => settleHeld('error', id, workerId, [message]),
  /** The page answered 404 or 410: an error that keeps its content; answers how many times in a row (0: lease lost). */
  gone: async (id: string, workerId: string, message: string) => Number((await settleHeldRows('gone', id, workerId, [message]))[0]?.goneCount ?? 0),
  /** The organization's stored-token limit would be passed: the previous chunks (and counts) stay. */
  usageLimitReached: (id: string, workerId: string, message: string, executor?: Executor) =>
    settleHeld('usageLimitReached', id, workerId, [message], executor),
  /** Back in the queue after `delaySeconds`, the reason visible meanwhile. */
  retry: (id: string, workerId: string, message: string, delaySeconds: number) => settleHeld('retry', id, workerId, [message, delaySeconds]),
  /** Given back at shutdown, not counted as an attempt: any worker may take it at once. */
  release: (id: string, workerId: string) => settleHeld('release', id, workerId),
  /** A group (a web site) whose children are queued: `running` without a lease until its last child settles it. */
  awaitChildren: (id: string, workerId: string) => settleHeld('awaitChildren', id, workerId),
}

export function usageLimitMessage(tokens: number, projected: number, limit: number): string {
  const n = (x: number) => x.toLocaleString('en')
  return `Usage limit reached: this content has ${n(tokens)} tokens, which would bring the organization's stored tokens to ${n(projected)}, over its limit of ${n(limit)}`
}
