import { getPrisma } from '@/lib/db/client'
import type { AccountResource } from '@/lib/domain/sign-in'
import type { TenantContext } from '@/lib/domain/tenant'
import { Forbidden, InvalidRequest, NotFound } from '@/lib/http/errors'
import { verifyPassword } from './passwords'
import { changePassword } from './session-version'

// The signed-in user's own account (issue 24): who they are in the current organization, and their password.

/** The user behind a dashboard session; an API key has no account of its own. */
export function userOf(ctx: TenantContext): string {
  if (ctx.actor.type !== 'user') throw new Forbidden('forbidden', 'This is a signed-in user\'s own account: an API key has none')
  return ctx.actor.userId
}

export async function readAccount(ctx: TenantContext): Promise<AccountResource> {
  const prisma = await getPrisma()
  const membership = await prisma.membership.findUnique({
    where: { organizationId_userId: { organizationId: ctx.organizationId, userId: userOf(ctx) } },
    select: { role: true, user: { select: { id: true, email: true, name: true } }, organization: { select: { id: true, name: true } } },
  })
  if (!membership) throw new NotFound('Account')
  return { ...membership.user, organization: membership.organization, role: membership.role }
}

/**
 * Changes the signed-in user's password when the current one is given right. Every session of the user made before
 * (this browser's too) ends: the dashboard signs in again with the new password.
 */
export async function changeOwnPassword(ctx: TenantContext, currentPassword: string, newPassword: string): Promise<AccountResource> {
  const prisma = await getPrisma()
  const user = await prisma.user.findUnique({ where: { id: userOf(ctx) }, select: { passwordHash: true } })
  if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new InvalidRequest('The current password is wrong', [{ path: 'currentPassword', message: 'wrong password', code: 'invalid_value' }])
  }
  await changePassword(userOf(ctx), newPassword)
  return readAccount(ctx)
}
