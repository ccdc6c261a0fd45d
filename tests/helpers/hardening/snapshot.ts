import fs from 'node:fs'
import path from 'node:path'
import { dataDir } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'

// What the service has written: row counts of every table, the latest update of every row that has one, the usage
// counters and the stored originals. Two equal snapshots around a refused request show it wrote nothing.
// (ApiKey.lastUsedAt is left out on purpose: authenticating a key records its use, whatever the request asks.)

const COUNTED = ['Organization', 'User', 'Membership', 'ApiKey', 'Datastore', 'Datasource', 'Chunk', 'Blob', 'Agent', 'AgentDatastore', 'Visitor', 'Conversation', 'Message', 'Usage', 'UsageLimit']
const UPDATED = ['Organization', 'User', 'Datastore', 'Datasource', 'Agent', 'Conversation']

const SNAPSHOT_SQL = `SELECT ${[
  ...COUNTED.map(t => `(SELECT count(*) FROM "${t}")::int AS "count:${t}"`),
  ...UPDATED.map(t => `(SELECT max("updatedAt") FROM "${t}")::text AS "updated:${t}"`),
  `(SELECT count(*) FROM "ApiKey" WHERE "revokedAt" IS NOT NULL)::int AS "revoked:ApiKey"`,
  `(SELECT max("lastSeenAt") FROM "Visitor")::text AS "seen:Visitor"`,
  `(SELECT coalesce(sum("agentQueries" + "datastoreQueries" + "promptTokens" + "completionTokens"), 0) FROM "Usage")::text AS "sum:Usage"`,
].join(', ')}`

export type Snapshot = Record<string, unknown>

function countFiles(dir: string): number {
  let n = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const e of entries) n += e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1
  return n
}

export async function snapshot(): Promise<Snapshot> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<Record<string, unknown>>(SNAPSHOT_SQL)
  return { ...row, 'files:blobs': countFiles(path.join(dataDir(), 'blobs')) }
}

/** The keys whose values differ between two snapshots, with both values. */
export function changes(before: Snapshot, after: Snapshot): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (String(before[key]) !== String(after[key])) out[key] = [before[key], after[key]]
  }
  return out
}
