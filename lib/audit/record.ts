import { getPrisma } from '@/lib/db/client'
import type { TenantContext } from '@/lib/domain/tenant'
import { logger } from '@/lib/logger'

// Writes the audit log: one entry per change (DESIGN.md §10), naming the actor as it was then (its email or the
// key's name, so the entry still reads after the user or key is gone), the target, the client and the request.

export interface AuditRecord {
  action: string
  target?: { type: string; id?: string | null; name?: string | null }
  clientAddress?: string | null
  requestId?: string | null
}

async function actorLabel(ctx: TenantContext): Promise<string> {
  const prisma = await getPrisma()
  if (ctx.actor.type === 'user') return (await prisma.user.findUnique({ where: { id: ctx.actor.userId }, select: { email: true } }))?.email ?? ctx.actor.userId
  return (await prisma.apiKey.findUnique({ where: { id: ctx.actor.apiKeyId }, select: { name: true } }))?.name ?? ctx.actor.apiKeyId
}

/** Records a change; a failure to record is logged (the change itself has happened). */
export async function recordAudit(ctx: TenantContext, record: AuditRecord): Promise<void> {
  try {
    const prisma = await getPrisma()
    await prisma.auditEntry.create({
      data: {
        organizationId: ctx.organizationId,
        actorType: ctx.actor.type,
        actorId: ctx.actor.type === 'user' ? ctx.actor.userId : ctx.actor.apiKeyId,
        actorLabel: await actorLabel(ctx),
        action: record.action,
        targetType: record.target?.type ?? null,
        targetId: record.target?.id ?? null,
        targetName: record.target?.name?.slice(0, 300) ?? null,
        clientAddress: record.clientAddress ?? null,
        requestId: record.requestId ?? null,
      },
    })
  } catch (error) {
    logger.error('could not record an audit entry', { action: record.action, error })
  }
}

/** Entries older than `days` removed (AUDIT_RETENTION_DAYS); answers how many. */
export async function pruneAudit(days: number): Promise<number> {
  const prisma = await getPrisma()
  const { count } = await prisma.auditEntry.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - days * 86_400_000) } } })
  return count
}
