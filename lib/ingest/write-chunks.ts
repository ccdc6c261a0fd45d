import { randomUUID } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { STORED_TOKENS_SQL } from '@/lib/usage/stored-tokens'
import { LeaseLost } from './errors'
import { NOW_UTC } from './lease'
import type { ChunkDraft } from './sections'
import { toVectorBinary } from './vector-binary'

// Rows per INSERT statement: 6 parameters each, well under the protocol's 65,535
const ROWS_PER_INSERT = 500

export interface SyncedContent {
  chunks: ChunkDraft[]
  /** One per chunk, or null without an embeddings provider (then the column stays NULL). */
  embeddings: number[][] | null
  textSize: number
  contentHash: string
  /** A new name for the datasource (a discovered page's title), else it keeps its own. */
  name?: string | null
}

export type WriteOutcome = { status: 'synched' } | { status: 'usage_limit_reached'; message: string }

/**
 * Replaces the datasource's chunks with `content` and marks it synched, in one short transaction (the embeddings
 * were computed before it). Nothing is written when this worker's lease was lost (a slower worker whose lease
 * expired must not write a second copy), nor when the organization would pass `storedTokensLimit`: then the
 * datasource ends `usage_limit_reached` and keeps its previous chunks.
 */
export async function replaceChunks(job: Datasource, workerId: string, content: SyncedContent, storedTokensLimit: number): Promise<WriteOutcome> {
  const { sql } = await getDatabase()
  const nbTokens = content.chunks.reduce((n, c) => n + c.tokens, 0)
  return sql.transaction(async tx => {
    const [held] = await tx.query<{ nbTokens: number }>(
      `SELECT "nbTokens" FROM "Datasource" WHERE id = $1 AND "leaseOwner" = $2 AND status = 'running' FOR UPDATE`,
      [job.id, workerId],
    )
    if (!held) throw new LeaseLost(job.id)
    // one writer per organization at a time, so the stored-token check is exact (NO KEY: foreign-key checks pass)
    await tx.query(`SELECT id FROM "Organization" WHERE id = $1 FOR NO KEY UPDATE`, [job.organizationId])
    const [stored] = await tx.query<{ total: string | number }>(STORED_TOKENS_SQL, [job.organizationId])
    const projected = Number(stored.total) - held.nbTokens + nbTokens
    if (projected > storedTokensLimit) {
      const message = usageLimitMessage(nbTokens, projected, storedTokensLimit)
      await tx.query(
        `UPDATE "Datasource" SET status = 'usage_limit_reached', "errorMessage" = $2, "nextRunAt" = NULL,
                "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC} WHERE id = $1`,
        [job.id, message],
      )
      return { status: 'usage_limit_reached', message }
    }
    await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = $1`, [job.id])
    for (let start = 0; start < content.chunks.length; start += ROWS_PER_INSERT) {
      const params: unknown[] = [job.organizationId, job.datastoreId, job.id, job.customId]
      const rows: string[] = []
      content.chunks.slice(start, start + ROWS_PER_INSERT).forEach((chunk, offset) => {
        const position = start + offset
        const embedding = content.embeddings?.[position]
        params.push(randomUUID(), position, chunk.text, chunk.tokens, JSON.stringify(chunk.metadata), embedding ? toVectorBinary(embedding) : null)
        const p = params.length - 6
        rows.push(`($${p + 1}, $1, $2, $3, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}::jsonb, $4, $${p + 6}::vector)`)
      })
      await tx.query(
        `INSERT INTO "Chunk" (id, "organizationId", "datastoreId", "datasourceId", position, text, tokens, metadata, custom_id, embedding)
         VALUES ${rows.join(', ')}`,
        params,
      )
    }
    await tx.query(
      `UPDATE "Datasource"
          SET status = 'synched', "nbChunks" = $2, "nbTokens" = $3, "textSize" = $4, "contentHash" = $5,
              name = COALESCE($6, name), "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL,
              "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
        WHERE id = $1`,
      [job.id, content.chunks.length, nbTokens, content.textSize, content.contentHash, content.name ?? null],
    )
    return { status: 'synched' }
  })
}

export function usageLimitMessage(tokens: number, projected: number, limit: number): string {
  const n = (x: number) => x.toLocaleString('en')
  return `Usage limit reached: this content has ${n(tokens)} tokens, which would bring the organization's stored tokens to ${n(projected)}, over its limit of ${n(limit)}`
}
