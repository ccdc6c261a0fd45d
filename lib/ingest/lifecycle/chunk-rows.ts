// The statements of a chunk write (write-chunks.ts, write-steps.ts): the leases and stored tokens locked, the rows
// inserted, the jobs marked synched.
import { randomUUID } from 'node:crypto'
import type { SqlStatements } from '@/lib/db/sql-driver'
import { toVectorBinary } from '@/lib/db/vector-binary'
import type { Datasource } from '@/lib/generated/prisma/client'
import { storedTokensByOrganization } from '@/lib/usage/stored-tokens'
import type { ChunkDraft } from '../sections'
import { NOW_UTC } from './clock'
import { usageLimitMessage } from './settle'
import type { ChunkWrite, SyncedContent } from './write-chunks'

type Tx = SqlStatements

export const tokensOf = (content: SyncedContent) => content.chunks.reduce((n, c) => n + c.tokens, 0)

/**
 * The usage-limit message when replacing `previous` stored tokens of the item's job by its content would pass its
 * organization's limit; else null, and `stored` (the organizations' stored tokens) counts the new content.
 */
export function admitTokens(item: ChunkWrite, stored: Map<string, number>, previous: number): string | null {
  const tokens = tokensOf(item.content)
  const projected = (stored.get(item.job.organizationId) ?? 0) - previous + tokens
  if (projected > item.limit) return usageLimitMessage(tokens, projected, item.limit)
  stored.set(item.job.organizationId, projected)
  return null
}

/** The jobs this worker still holds, locked, with the tokens their chunks hold now. */
export async function lockHeldJobs(tx: Tx, workerId: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ id: string; nbTokens: number }>(
    `SELECT id, "nbTokens" FROM "Datasource" WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running' ORDER BY id FOR UPDATE`,
    [ids, workerId],
  )
  return new Map(rows.map(r => [r.id, Number(r.nbTokens)]))
}

/** One writer per organization at a time, so the stored-token check is exact (NO KEY: foreign-key checks pass). */
export async function lockStoredTokens(tx: Tx, organizationIds: string[]): Promise<Map<string, number>> {
  if (organizationIds.length === 0) return new Map()
  const orgs = [...organizationIds].sort()
  await tx.query(`SELECT id FROM "Organization" WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`, [orgs])
  return storedTokensByOrganization(tx, orgs)
}

/** A chunk to insert: its job, its text, its place in the job's content and its generation. */
export interface ChunkRow {
  job: Datasource
  chunk: ChunkDraft
  position: number
  embedding: number[] | undefined
  generation: number
}

/** The writes' chunks, of their datasource's current generation unless `generation` says otherwise (write-steps.ts). */
export const chunkRows = (writes: ChunkWrite[], generation?: number): ChunkRow[] =>
  writes.flatMap(({ job, content }) =>
    content.chunks.map((chunk, position) => ({ job, chunk, position, embedding: content.embeddings?.[position], generation: generation ?? job.contentGeneration })),
  )

/** One INSERT of the given chunks. */
export async function insertChunkRows(tx: Tx, rows: ChunkRow[]): Promise<void> {
  const params: unknown[] = []
  const values: string[] = []
  for (const { job, chunk, position, embedding, generation } of rows) {
    const p = params.length
    params.push(randomUUID(), job.organizationId, job.datastoreId, job.id, position, chunk.text, chunk.tokens,
      JSON.stringify(chunk.metadata), job.customId, embedding ? toVectorBinary(embedding) : null, generation)
    values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}, $${p + 10}::vector, $${p + 11}::int)`)
  }
  await tx.query(
    `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding, generation)
     VALUES ${values.join(', ')}`,
    params,
  )
}

/**
 * The jobs synched with their new content, in one UPDATE: counts, content hash, what the synchronisation did
 * ("syncOutcome": added the first time, else changed) and the HTTP validators of that content, in the transaction
 * that wrote its chunks (or deleted the last of a re-synchronisation's old ones: no generation is hidden any more).
 */
export async function markSynched(tx: Tx, writes: ChunkWrite[]): Promise<void> {
  await tx.query(
    `UPDATE "Datasource" AS d
        SET status = 'synched', "nbChunks" = v.chunks, "nbTokens" = v.tokens, "textSize" = v.size, "contentHash" = v.hash,
            name = COALESCE(v.name, d.name), "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL,
            "syncOutcome" = CASE WHEN d."lastSynch" IS NULL THEN 'added' ELSE 'changed' END, "goneCount" = 0,
            "httpEtag" = v.etag, "httpLastModified" = v.modified, "fetchContext" = v.context,
            "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}, "hiddenGeneration" = NULL
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
