import { z } from 'zod'
import { getPrisma } from '@/lib/db/client'
import type { AuditEntryResource } from '@/lib/domain/audit'
import type { TenantContext } from '@/lib/domain/tenant'
import { IdParam } from '@/lib/http/body'
import { afterCursor, decodePageCursor, encodePageCursor } from '@/lib/http/page-cursor'
import { csvField } from '@/lib/inbox/export'

// Reading the audit log (GET /api/audit-log, its CSV export): newest first, filtered by actor (an email, a key's name
// or an id), action (exact, or a prefix ending in "." such as "datastore."), and a time range.

export const AuditFilters = z.object({
  actor: z.string().trim().min(1).max(320).optional(),
  action: z.string().trim().min(1).max(100).regex(/^[a-z_.]+$/, 'letters, "_" and "." only').optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
})
export const AuditListParams = AuditFilters.extend({ cursor: z.string().max(512).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) })
export type AuditFilters = z.infer<typeof AuditFilters>

type Row = Awaited<ReturnType<Awaited<ReturnType<typeof getPrisma>>['auditEntry']['findMany']>>[number]

function whereOf(ctx: TenantContext, f: AuditFilters) {
  return {
    organizationId: ctx.organizationId,
    ...(f.actor ? { OR: [{ actorLabel: f.actor }, { actorId: IdParam.safeParse(f.actor).success ? f.actor : '' }] } : {}),
    ...(f.action ? (f.action.endsWith('.') ? { action: { startsWith: f.action } } : { action: f.action }) : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lte: new Date(f.to) } : {}) } } : {}),
  }
}

function toResource(e: Row): AuditEntryResource {
  return {
    id: e.id,
    createdAt: e.createdAt.toISOString(),
    actor: { type: e.actorType as 'user' | 'api_key', id: e.actorId, label: e.actorLabel },
    action: e.action,
    target: e.targetType ? { type: e.targetType, id: e.targetId, name: e.targetName } : null,
    clientAddress: e.clientAddress,
    requestId: e.requestId,
  }
}

export async function listAudit(ctx: TenantContext, params: z.infer<typeof AuditListParams>) {
  const prisma = await getPrisma()
  const cursor = params.cursor ? afterCursor(decodePageCursor(params.cursor)) : {}
  const rows = await prisma.auditEntry.findMany({
    where: { AND: [whereOf(ctx, params), cursor] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: params.limit + 1,
  })
  const page = rows.slice(0, params.limit)
  return { items: page.map(toResource), nextCursor: rows.length > params.limit ? encodePageCursor(page[page.length - 1]) : null }
}

const COLUMNS = ['time', 'actor_type', 'actor', 'action', 'target_type', 'target_id', 'target_name', 'client_address', 'request_id'] as const

/** The filtered log as CSV lines (header first), a page at a time. */
export async function* exportAudit(ctx: TenantContext, filters: AuditFilters): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`
  let cursor: string | undefined
  do {
    const page = await listAudit(ctx, { ...filters, cursor, limit: 200 })
    for (const e of page.items) {
      yield `${[e.createdAt, e.actor.type, e.actor.label, e.action, e.target?.type, e.target?.id, e.target?.name, e.clientAddress, e.requestId].map(csvField).join(',')}\r\n`
    }
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}
