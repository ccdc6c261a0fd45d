import { getDatabase } from '@/lib/db/client'
import type { TenantContext } from '@/lib/domain/tenant'
import { upsertDocuments } from '@/lib/datastores/upsert'
import { NotFound } from '@/lib/http/errors'
import type { GapAnswerBody } from './schemas'

// The two ways out of the gap queue: "dismiss" (nothing to add), and "add an answer" (the answer becomes a text
// datasource of a chosen datastore, queued through the ingestion lifecycle like any upserted document, so the next
// identical question finds it once it is synched). Both answer how many answers left the queue: resolving again is
// no error (0), another organization's ids are a 404.

/** The agents a limited key is held to (its gaps are those of their conversations), or null for all. */
const agentsOf = (ctx: TenantContext) => (ctx.grant?.agentIds ? [...ctx.grant.agentIds] : null)

/** NotFound unless at least one of these messages is an answer of the organization. */
async function checkOwned(ctx: TenantContext, messageIds: string[]): Promise<void> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
      WHERE m.id = ANY($2::text[]) AND c."organizationId" = $1 AND m.role = 'assistant'
        AND ($3::text[] IS NULL OR c."agentId" = ANY($3::text[]))`,
    [ctx.organizationId, messageIds, agentsOf(ctx)],
  )
  if (Number(row?.n ?? 0) === 0) throw new NotFound('Gap')
}

async function markResolved(ctx: TenantContext, messageIds: string[], resolution: 'dismissed' | 'answered'): Promise<number> {
  const { sql } = await getDatabase()
  const rows = await sql.query(
    `UPDATE "Message" m SET "gapResolution" = $3, "gapResolvedAt" = now()
       FROM "Conversation" c
      WHERE c.id = m."conversationId" AND c."organizationId" = $1 AND m.id = ANY($2::text[])
        AND m.role = 'assistant' AND m."gapResolution" IS NULL
        AND ($4::text[] IS NULL OR c."agentId" = ANY($4::text[]))
      RETURNING m.id`,
    [ctx.organizationId, messageIds, resolution, agentsOf(ctx)],
  )
  return rows.length
}

export async function dismissGaps(ctx: TenantContext, messageIds: string[]): Promise<{ resolved: number }> {
  await checkOwned(ctx, messageIds)
  return { resolved: await markResolved(ctx, messageIds, 'dismissed') }
}

/** The question and its answer as one text datasource (named by the question), then the gaps marked answered. */
export async function answerGaps(ctx: TenantContext, body: GapAnswerBody): Promise<{ resolved: number; datasourceId: string }> {
  await checkOwned(ctx, body.messageIds)
  const { ids } = await upsertDocuments(ctx, body.datastoreId, [{ name: body.question.slice(0, 200), text: `${body.question}\n\n${body.answer}` }])
  return { resolved: await markResolved(ctx, body.messageIds, 'answered'), datasourceId: ids[0] }
}
