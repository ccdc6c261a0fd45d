import { currentMembership } from '@/lib/auth/tenant'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'

/**
 * What the dashboard's frame needs of a signed-in user: the organization it shows (the one the session's cookie
 * names, as identify() reads it) and all of theirs with their role, for the switcher; null without any membership.
 */
export async function memberships(userId: string, cookieOrganizationId?: string): Promise<{ organizationId: string; organizations: { id: string; name: string; role: Role }[] } | null> {
  const current = await currentMembership(userId, cookieOrganizationId)
  if (!current) return null
  const prisma = await getPrisma()
  const rows = await prisma.membership.findMany({ where: { userId }, include: { organization: { select: { name: true } } }, orderBy: { createdAt: 'asc' } })
  return { organizationId: current.organizationId, organizations: rows.map(m => ({ id: m.organizationId, name: m.organization.name, role: m.role })) }
}
