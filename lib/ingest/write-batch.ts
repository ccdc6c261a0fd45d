import { randomUUID } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { NOW_UTC } from './lease'
import { toVectorBinary } from './vector-binary'
import { usageLimitMessage, type SyncedContent } from './write-chunks'

// Rows per INSERT statement: 10 parameters each, well under the protocol's 65,535
const ROWS_PER_INSERT = 500

export interface BatchItem {
  job: Datasource
  content: SyncedContent
  /** The organization's stored-token limit. */
  limit: number
}

export type BatchWriteOutcome = { status: 'synched' } | { status: 'usage_limit_reached'; message: string } | { status: 'lease_lost' }

/**
 * replaceChunks for several jobs in one transaction, with a handful of statements whatever their number: the
 * leases checked (FOR UPDATE), the organizations locked and their stored tokens summed once, every job's old chunks
 * deleted and new ones inserted together, and the datasources marked synched in one UPDATE. Each job keeps its own
 * outcome: one whose lease was lost writes nothing; one that would pass its organization's limit (counting the
 * jobs before it in the batch) ends usage_limit_reached and keeps its previous chunks. Throws on a database error
 * (then nothing is written, and the caller writes the jobs one by one).
 */
export async function replaceChunksBatch(workerId: string, items: BatchItem[]): Promise<BatchWriteOutcome[]> {
  const { sql } = await getDatabase()
  return sql.transaction(async tx => {
    const ids = items.map(i => i.job.id)
    const heldRows = await tx.query<{ id: string; nbTokens: number }>(
      `SELECT id, "nbTokens" FROM "Datasource" WHERE id = ANY($1::text[]) AND "leaseOwner" = $2 AND status = 'running' ORDER BY id FOR UPDATE`,
      [ids, workerId],
    )
    const held = new Map(heldRows.map(r => [r.id, Number(r.nbTokens)]))
    const orgs = [...new Set(items.filter(i => held.has(i.job.id)).map(i => i.job.organizationId))].sort()
    const stored = new Map<string, number>()
    if (orgs.length > 0) {
      // one writer per organization at a time, so the stored-token check is exact (NO KEY: foreign-key checks pass)
      await tx.query(`SELECT id FROM "Organization" WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`, [orgs])
      const sums = await tx.query<{ organizationId: string; total: string | number }>(
        `SELECT "organizationId", COALESCE(SUM("nbTokens"), 0) AS total FROM "Datasource"
          WHERE "organizationId" = ANY($1::text[]) AND type <> 'web_site' GROUP BY "organizationId"`,
        [orgs],
      )
      for (const s of sums) stored.set(s.organizationId, Number(s.total))
    }

    const outcomes: BatchWriteOutcome[] = []
    const writes: BatchItem[] = []
    for (const item of items) {
      const previous = held.get(item.job.id)
      if (previous === undefined) {
        outcomes.push({ status: 'lease_lost' })
        continue
      }
      const tokens = item.content.chunks.reduce((n, c) => n + c.tokens, 0)
      const total = stored.get(item.job.organizationId) ?? 0
      const projected = total - previous + tokens
      if (projected > item.limit) {
        const message = usageLimitMessage(tokens, projected, item.limit)
        await tx.query(
          `UPDATE "Datasource" SET status = 'usage_limit_reached', "errorMessage" = $2, "nextRunAt" = NULL,
                  "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC} WHERE id = $1`,
          [item.job.id, message],
        )
        outcomes.push({ status: 'usage_limit_reached', message })
        continue
      }
      stored.set(item.job.organizationId, projected)
      writes.push(item)
      outcomes.push({ status: 'synched' })
    }
    if (writes.length === 0) return outcomes

    await tx.query(`DELETE FROM "Chunk" WHERE "datasourceId" = ANY($1::text[])`, [writes.map(w => w.job.id)])
    const rows = writes.flatMap(({ job, content }) => content.chunks.map((chunk, position) => ({ job, chunk, position, embedding: content.embeddings?.[position] })))
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const params: unknown[] = []
      const values: string[] = []
      for (const { job, chunk, position, embedding } of rows.slice(start, start + ROWS_PER_INSERT)) {
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
    }
    await tx.query(
      `UPDATE "Datasource" AS d
          SET status = 'synched', "nbChunks" = v.chunks, "nbTokens" = v.tokens, "textSize" = v.size, "contentHash" = v.hash,
              name = COALESCE(v.name, d.name), "lastSynch" = ${NOW_UTC}, "errorMessage" = NULL, attempts = 0, "nextRunAt" = NULL,
              "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${NOW_UTC}
         FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[]) AS v(id, chunks, tokens, size, hash, name)
        WHERE d.id = v.id`,
      [
        writes.map(w => w.job.id),
        writes.map(w => w.content.chunks.length),
        writes.map(w => w.content.chunks.reduce((n, c) => n + c.tokens, 0)),
        writes.map(w => w.content.textSize),
        writes.map(w => w.content.contentHash),
        writes.map(w => w.content.name ?? null),
      ],
    )
    return outcomes
  })
}
