import { getPrisma } from '@/lib/db/client'
import type { MemberResource } from '@/lib/domain/support'
import type { TenantContext } from '@/lib/domain/tenant'

/** The organization's members, oldest first: whom a conversation can be assigned to. */
export async function listMembers(ctx: TenantContext): Promise<MemberResource[]> {
  const prisma = await getPrisma()
  const rows = await prisma.membership.findMany({
    where: { organizationId: ctx.organizationId },
    orderBy: { createdAt: 'asc' },
    select: { role: true, user: { select: { id: true, name: true, email: true } } },
  })
  return rows.map(m => ({ id: m.user.id, name: m.user.name, email: m.user.email, role: m.role }))
}
