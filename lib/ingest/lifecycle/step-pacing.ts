// The pace of a write in steps (write-steps.ts, write-generations.ts): how many chunks a step writes or deletes, and
// the way it makes for others' statements between two steps.
import type { SqlDriver, SqlStatements } from '@/lib/db/sql-driver'
import { lockHeldJobs } from './chunk-rows'

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

/** SHARED_STEP_ROWS when others' statements were seen waiting while the writer made way, else STEP_ROWS. */
export const nextStepSize = async (sql: SqlDriver, stepMs: number) => ((await makeWay(sql, stepMs)) ? SHARED_STEP_ROWS : STEP_ROWS)

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Waits until the embedded database has had no statement but this writer's for QUIET_MS, at most `stepMs`; whether
 * others' statements were seen meanwhile.
 */
export async function makeWay(sql: SqlDriver, stepMs: number): Promise<boolean> {
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

/** Whether this worker still holds the job (its row locked until the transaction ends). */
export const holds = async (tx: Tx, workerId: string, jobId: string) => (await lockHeldJobs(tx, workerId, [jobId])).has(jobId)

