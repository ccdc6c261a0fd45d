import os from 'node:os'
import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { sleep } from './background'
import { messageOf } from './errors'
import { NOW_UTC } from './lifecycle/clock'

// A running worker says it is alive (issue 27): one row per worker, refreshed every HEARTBEAT_MS on the database's
// clock, removed when it stops. /api/health?deep=1 reads the freshest row: a worker that crashed stops refreshing,
// and once its row is older than STALE_AFTER_MS nothing is synchronising, whatever this process believes.

export const HEARTBEAT_MS = 5_000
/** Three missed heartbeats: a worker busy with a large file still refreshes (its lane is separate), a dead one does not. */
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS

export async function reportWorkerAlive(workerId: string): Promise<void> {
  const { sql } = await getDatabase()
  await sql.query(
    `INSERT INTO "WorkerHeartbeat" ("workerId", host, pid, "startedAt", "lastSeenAt") VALUES ($1, $2, $3, ${NOW_UTC}, ${NOW_UTC})
     ON CONFLICT ("workerId") DO UPDATE SET "lastSeenAt" = ${NOW_UTC}`,
    [workerId, os.hostname(), process.pid],
  )
}

export async function removeWorkerHeartbeat(workerId: string): Promise<void> {
  const { sql } = await getDatabase()
  await sql.query(`DELETE FROM "WorkerHeartbeat" WHERE "workerId" = $1`, [workerId])
}

/** The heartbeat lane of a worker: refreshes its row until `stop` aborts, then removes it. */
export async function runHeartbeatLane(workerId: string, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    await reportWorkerAlive(workerId).catch(error => logger.warn('worker heartbeat not written', { workerId, error: messageOf(error) }))
    await sleep(HEARTBEAT_MS, stop)
  }
  await removeWorkerHeartbeat(workerId).catch(error => logger.warn('worker heartbeat not removed', { workerId, error: messageOf(error) }))
}

export interface WorkersAlive {
  /** Workers whose heartbeat is fresh. */
  alive: number
  /** The freshest heartbeat of any worker, stale ones included (a crashed worker's last sign of life). */
  lastSeenAt: string | null
}

export async function workersAlive(): Promise<WorkersAlive> {
  const { sql } = await getDatabase()
  // the columns hold UTC wall time without a zone: formatted in SQL, so no driver reads them as local time
  const [row] = await sql.query<{ alive: string | number; last_seen: string | null }>(
    `SELECT count(*) FILTER (WHERE "lastSeenAt" > ${NOW_UTC} - make_interval(secs => $1)) AS alive,
            to_char(max("lastSeenAt"), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_seen
       FROM "WorkerHeartbeat"`,
    [STALE_AFTER_MS / 1000],
  )
  return { alive: Number(row?.alive ?? 0), lastSeenAt: row?.last_seen ?? null }
}
