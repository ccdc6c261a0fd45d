import { createHash, randomBytes } from 'node:crypto'
import { getPrisma } from '@/lib/db/client'
import { INVITATION_TTL_DAYS, type CreatedInvitation, type InvitationResource } from '@/lib/domain/members'
import type { Role } from '@/lib/domain/access'
import type { TenantContext } from '@/lib/domain/tenant'
import { Conflict, InvalidRequest, NotFound } from '@/lib/http/errors'
import { assertMayGrant } from './caller-role'
import { mailInvitation } from './invitation-mail'

// Invitations (issue 24): a link with a random token, which is the credential of whoever opens it. Only the token's
// SHA-256 is kept, so the database never holds a usable link; the token is answered once, when the invitation is made.

const TOKEN_PREFIX = 'inv_'

export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex')

type Row = { id: string; email: string; role: Role; createdAt: Date; expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null }

function toResource(row: Row): InvitationResource {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }
}

/** The page an invitation's link opens, on the site's public address (NEXTAUTH_URL behind a proxy). */
export function invitationUrl(origin: string, token: string): string {
  const base = (process.env.NEXTAUTH_URL ?? origin).replace(/\/+$/, '')
  return `${base}/invite/${encodeURIComponent(token)}`
}

/**
 * Invites `email` as `role`, valid for 7 days. A member of the organization already is refused (change their role
 * instead); a pending invitation for the same email is replaced, so one link stays valid per person.
 */
export async function createInvitation(ctx: TenantContext, input: { email: string; role: Role }, origin: string): Promise<CreatedInvitation> {
  await assertMayGrant(ctx, input.role)
  const prisma = await getPrisma()
  const member = await prisma.membership.findFirst({ where: { organizationId: ctx.organizationId, user: { email: input.email } } })
  if (member) throw new InvalidRequest(`${input.email} is already a member of this organization`, { field: 'email' })
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url')
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000)
  const row = await prisma.$transaction(async tx => {
    await tx.invitation.updateMany({ where: { organizationId: ctx.organizationId, email: input.email, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } })
    return tx.invitation.create({
      data: { organizationId: ctx.organizationId, email: input.email, role: input.role, tokenHash: hashInvitationToken(token), expiresAt, invitedById: ctx.actor.type === 'user' ? ctx.actor.userId : null },
    })
  })
  const url = invitationUrl(origin, token)
  const mailed = await mailInvitation(ctx.organizationId, row.email, row.role, url)
  return { id: row.id, email: row.email, role: row.role, token, url, expiresAt: row.expiresAt.toISOString(), mailed }
}

/** The invitations still waiting to be accepted (not accepted, revoked or expired), newest first. */
export async function listInvitations(ctx: TenantContext): Promise<InvitationResource[]> {
  const prisma = await getPrisma()
  const rows = await prisma.invitation.findMany({
    where: { organizationId: ctx.organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
  })
  return rows.map(toResource)
}

/** Revokes a pending invitation: its link no longer works. Another organization's id is 404. */
export async function revokeInvitation(ctx: TenantContext, id: string): Promise<InvitationResource> {
  const prisma = await getPrisma()
  const row = await prisma.invitation.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!row) throw new NotFound('Invitation')
  if (row.acceptedAt) throw new Conflict('This invitation was already accepted: remove the member instead')
  if (row.revokedAt) return toResource(row)
  return toResource(await prisma.invitation.update({ where: { id }, data: { revokedAt: new Date() } }))
}

/** The invitation a token stands for, usable now: unknown tokens are 404, used, revoked or expired ones 409. */
export async function usableInvitation(token: string) {
  const prisma = await getPrisma()
  const row = await prisma.invitation.findUnique({ where: { tokenHash: hashInvitationToken(token) }, include: { organization: { select: { name: true } } } })
  if (!row) throw new NotFound('Invitation')
  if (row.acceptedAt) throw new Conflict('This invitation has already been accepted')
  if (row.revokedAt) throw new Conflict('This invitation was revoked')
  if (row.expiresAt <= new Date()) throw new Conflict('This invitation has expired: ask for a new one')
  return row
}
