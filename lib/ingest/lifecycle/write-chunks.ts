import { storedTokensByOrganization } from '@/lib/usage/stored-tokens'
import { randomUUID } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'
import type { SqlDriver, SqlStatements } from '@/lib/db/sql-driver'
import { toVectorBinary } from '@/lib/db/vector-binary'
import type { Datasource } from '@/lib/generated/prisma/client'
import type { ChunkDraft } from '../sections'
import { NOW_UTC } from './clock'
import { settle, usageLimitMessage, type HeldValidators } from './settle'

// Rows per INSERT statement at most: 10 parameters each, well under the protocol's 65,535. A group's rows go in as
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

const tokensOf = (content: SyncedContent) => content.chunks.reduce((n, c) => n + c.tokens, 0)

/**
 * Replaces the chunks of several claimed jobs (one job is a batch of one) and marks them synched, in one short
 * transaction with a handful of statements whatever their number (the embeddings were computed before it): the
 * leases checked (FOR UPDATE), the organizations locked and their stored tokens summed once, old chunks deleted and
 * new ones inserted together, the datasources marked synched in one UPDATE. Each job keeps its own outcome: one
 * whose lease was lost writes nothing (a slower worker whose lease expired must not write a second copy); one that
 * would pass its organization's limit (counting the jobs before it) ends usage_limit_reached and keeps its previous
 * chunks. Throws on a database error, and then nothing is written.
 */
export async function writeChunks(workerId: string, items: ChunkWrite[]): Promise<WriteOutcome[]> {
  const database = await getDatabase()
  const outcomes = await database.sql.transaction(tx => writeInTransaction(tx, workerId, items))
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
    const tokens = tokensOf(item.content)
    const projected = (stored.get(item.job.organizationId) ?? 0) - previous + tokens
    if (projected > item.limit) {
      const message = usageLimitMessage(tokens, projected, item.limit)
      await settle.usageLimitReached(item.job.id, workerId, message, tx)
      outcomes.push({ status: 'usage_limit_reached', message })
      continue
    }
    stored.set(item.job.organizationId, projected)
    writes.push(item)
    outcomes.push({ status: 'synched' })
  }
  if (writes.length > 0) {
    await replaceRows(tx, writes)
    await markSynched(tx, writes)
  }
  return outcomes
}

/** The jobs this worker still holds, locked, with the tokens their chunks hold now. */
async function lockHeldJobs(tx: Tx, workerId: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ id: string; nbTokens: number }>(
    `SELECT id, "nbTokens" FROM "Datasource" WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running' ORDER BY id FOR UPDATE`,
    [ids, workerId],
  )
  return new Map(rows.map(r => [r.id, Number(r.nbTokens)]))
}

/** One writer per organization at a time, so the stored-token check is exact (NO KEY: foreign-key checks pass). */
async function lockStoredTokens(tx: Tx, organizationIds: string[]): Promise<Map<string, number>> {
  if (organizationIds.length === 0) return new Map()
  const orgs = [...organizationIds].sort()
  await tx.query(`SELECT id FROM "Organization" WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`, [orgs])
  return storedTokensByOrganization(tx, orgs)
}

async function replaceRows(tx: Tx, writes: ChunkWrite[]): Promise<void> {
  await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = ANY($1::text[])`, [writes.map(w => w.job.id)])
  const rows = writes.flatMap(({ job, content }) => content.chunks.map((chunk, position) => ({ job, chunk, position, embedding: content.embeddings?.[position] })))
  const size = Math.ceil(rows.length / Math.ceil(rows.length / ROWS_PER_INSERT))
  for (let start = 0; start < rows.length; start += size) {
    const params: unknown[] = []
    const values: string[] = []
    for (const { job, chunk, position, embedding } of rows.slice(start, start + size)) {
      const p = params.length
      params.push(randomUUID(), job.organizationId, job.datastoreId, job.id, position, chunk.text, chunk.tokens,
        JSON.stringify(chunk.metadata), job.customId, embedding ? toVectorBinary(embedding) : null)
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}, $${p + 10}::vector)`)
    }
    await tx.query(
      `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding)
       VALUES ${values.join(', ')}`,
      params,
    )
    // between statements the web server answers what needs no database (the embedded one queues the rest)
    if (start + size < rows.length) await new Promise(resolve => setImmediate(resolve))
  }
}

/**
 * The jobs synched with their new content, in one UPDATE: counts, content hash, what the synchronisation did
 * ("syncOutcome": added the first time, else changed) and the HTTP validators of that content, in the transaction
 * that wrote its chunks.
 */
async function markSynched(tx: Tx, writes: ChunkWrite[]): Promise<void> {
  await tx.query(
    `UPDATE "Datasource" AS d
        SET status = 'synched', "nbChunks" = v.chunks, "nbTokens" = v.tokens, "textSize" = v.size, "contentHash" = v.hash,
            name = COALESCE(v.name, d.name), "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL,
            "syncOutcome" = CASE WHEN d."lastSynch" IS NULL THEN 'added' ELSE 'changed' END, "goneCount" = 0,
            "httpEtag" = v.etag, "httpLastModified" = v.modified, "fetchContext" = v.context,
            "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
            AS v(id, chunks, tokens, size, hash, name, etag, modified, context)
      WHERE d.id = v.id`,
    [
      writes.map(w => w.job.id),
      writes.map(w => w.content.chunks.length),
      writes.map(w => tokensOf(w.content)),
      writes.map(w => w.content.textSize),
      writes.map(w => w.content.contentHash),
      writes.map(w => w.content.name ?? null),
      writes.map(w => w.validators?.etag ?? null),
      writes.map(w => w.validators?.lastModified ?? null),
      writes.map(w => w.validators?.context ?? null),
    ],
  )
}
