import { createHash, randomBytes } from 'node:crypto'
import { recordAudit } from '@/lib/audit/record'
import { getPrisma } from '@/lib/db/client'
import type { PasswordResetLink } from '@/lib/domain/sign-in'
import type { TenantContext } from '@/lib/domain/tenant'
import { Forbidden, NotFound } from '@/lib/http/errors'
import { changePassword } from './session-version'

// An admin's reset link for a member's password (issue 24), like an invitation: a random token in a URL, stored as
// its SHA-256 only, good once for 24 hours. Using it sets the password and ends every session of the member.

const VALID_MS = 24 * 3600_000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Who may reset whom: the member must be of the caller's organization (else 404, as another tenant's id); an owner's
 * password only by an owner (signed in), since the link is the account; and never a member who belongs to other
 * organizations too, whose admins did not agree to it.
 */
async function checkResettable(ctx: TenantContext, userId: string) {
  const prisma = await getPrisma()
  const memberships = await prisma.membership.findMany({ where: { userId }, select: { organizationId: true, role: true } })
  const here = memberships.find(m => m.organizationId === ctx.organizationId)
  if (!here) throw new NotFound('Member')
  if (here.role === 'owner') {
    const caller = ctx.actor.type === 'user' ? await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: ctx.organizationId, userId: ctx.actor.userId } } }) : null
    if (caller?.role !== 'owner') throw new Forbidden('forbidden', "Only an owner may reset an owner's password")
  }
  if (memberships.length > 1) throw new Forbidden('forbidden', 'This member belongs to other organizations too: they change their password themselves')
}

/** Makes a reset link for the member (an earlier unused one stops working); the token is in the URL only. */
export async function createPasswordReset(ctx: TenantContext, userId: string, origin: string, now = new Date()): Promise<PasswordResetLink> {
  await checkResettable(ctx, userId)
  const prisma = await getPrisma()
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + VALID_MS)
  await prisma.$transaction([
    prisma.passwordReset.deleteMany({ where: { userId, usedAt: null } }),
    prisma.passwordReset.create({ data: { userId, organizationId: ctx.organizationId, tokenHash: hashToken(token), expiresAt } }),
  ])
  return { url: `${origin.replace(/\/+$/, '')}/reset-password/${token}`, expiresAt: expiresAt.toISOString() }
}

/** Sets the password a reset link is for, once; an unknown, used or expired token is a 404. */
export async function usePasswordReset(token: string, password: string, clientAddress: string, now = new Date()): Promise<{ email: string }> {
  const prisma = await getPrisma()
  // claimed by a conditional update: of two requests with the same token, one wins
  const reset = await prisma.passwordReset.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { select: { email: true } } } })
  const claimed = reset && (await prisma.passwordReset.updateMany({ where: { id: reset.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } })).count === 1
  if (!reset || !claimed) throw new NotFound('Password reset link (unknown, used or expired)')
  await changePassword(reset.userId, password)
  const ctx = { organizationId: reset.organizationId, actor: { type: 'user' as const, userId: reset.userId } }
  await recordAudit(ctx, { action: 'auth.password_reset', target: { type: 'user', id: reset.userId, name: reset.user.email }, clientAddress })
  return { email: reset.user.email }
}
