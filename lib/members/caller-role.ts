import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import type { TenantContext } from '@/lib/domain/tenant'
import { Forbidden } from '@/lib/http/errors'

// Who may hand out which role. The endpoints already require the `admin` scope (lib/domain/access.ts); on top of it,
// ownership is the owners' to give or take: an admin cannot make someone owner, nor demote or remove an owner. An API
// key is its organization's, never an owner: it manages members as an admin would.

/** The caller's role in its organization: a member's own, an API key's as an admin's. */
export async function callerRole(ctx: TenantContext): Promise<Role> {
  if (ctx.actor.type === 'api_key') return 'admin'
  const prisma = await getPrisma()
  const membership = await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: ctx.organizationId, userId: ctx.actor.userId } }, select: { role: true } })
  return membership?.role ?? 'viewer'
}

/** Refuses (403) handing out, or taking away, the owner role unless the caller is an owner. */
export function assertOwnerFor(caller: Role, ...roles: Role[]): void {
  if (roles.includes('owner') && caller !== 'owner') {
    throw new Forbidden('forbidden', 'Only an owner may make someone owner, or change or remove an owner', { role: 'owner' })
  }
}

export async function assertMayGrant(ctx: TenantContext, ...roles: Role[]): Promise<void> {
  if (roles.includes('owner')) assertOwnerFor(await callerRole(ctx), ...roles)
}
