import { currentMembership } from '@/lib/auth/tenant'
import { getPrisma } from '@/lib/db/client'
import type { OrganizationResource } from '@/lib/domain/members'
import type { TenantContext } from '@/lib/domain/tenant'
import { Forbidden, NotFound } from '@/lib/http/errors'

// Several organizations per user (issue 24): a member creates one (as its owner), lists those they belong to, and
// switches between them; the session's cookie names the current one (lib/auth/tenant.ts). An API key stays bound to
// the organization that made it: it lists that one only, and neither creates nor switches.

function userOf(ctx: TenantContext, what: string): string {
  if (ctx.actor.type === 'user') return ctx.actor.userId
  throw new Forbidden('forbidden', `${what} is for a member's session: an API key belongs to one organization`)
}

export async function listOrganizations(ctx: TenantContext): Promise<OrganizationResource[]> {
  const prisma = await getPrisma()
  if (ctx.actor.type === 'api_key') {
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: ctx.organizationId } })
    return [{ id: org.id, name: org.name, role: null, current: true, createdAt: org.createdAt.toISOString() }]
  }
  const rows = await prisma.membership.findMany({ where: { userId: ctx.actor.userId }, include: { organization: true }, orderBy: { createdAt: 'asc' } })
  return rows.map(m => ({ id: m.organizationId, name: m.organization.name, role: m.role, current: m.organizationId === ctx.organizationId, createdAt: m.organization.createdAt.toISOString() }))
}

/** A new organization with the caller as its owner (the caller's current organization does not change). */
export async function createOrganization(ctx: TenantContext, name: string): Promise<OrganizationResource> {
  const userId = userOf(ctx, 'Creating an organization')
  const prisma = await getPrisma()
  const org = await prisma.organization.create({ data: { name, memberships: { create: { userId, role: 'owner' } } } })
  return { id: org.id, name: org.name, role: 'owner', current: false, createdAt: org.createdAt.toISOString() }
}

/** The organization to switch to, checked: one the caller is a member of, else 404 (as for any other tenant's id). */
export async function organizationToSwitchTo(ctx: TenantContext, organizationId: string): Promise<OrganizationResource> {
  const userId = userOf(ctx, 'Switching organizations')
  const membership = await currentMembership(userId, organizationId)
  if (!membership || membership.organizationId !== organizationId) throw new NotFound('Organization')
  const prisma = await getPrisma()
  const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })
  return { id: org.id, name: org.name, role: membership.role, current: true, createdAt: org.createdAt.toISOString() }
}
