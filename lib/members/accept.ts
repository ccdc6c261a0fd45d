import { hashPassword } from '@/lib/auth/passwords'
import { recordAudit } from '@/lib/audit/record'
import { getPrisma } from '@/lib/db/client'
import type { AcceptedInvitation } from '@/lib/domain/members'
import { Conflict, InvalidRequest, Unauthorized } from '@/lib/http/errors'
import { usableInvitation } from './invitations'

// Accepting an invitation (POST /api/invitations/{token}/accept): the token is the credential. A new email gets an
// account with the name and password given; an email that already has an account joins only from that user's own
// signed-in session (the token alone must not add an organization to somebody else's account).

export interface AcceptInput {
  token: string
  name?: string
  password?: string
  /** The user of the session the request carries, if any. */
  signedInUserId: string | null
  request: { clientAddress: string; requestId: string }
}

export async function acceptInvitation(input: AcceptInput): Promise<AcceptedInvitation> {
  const invitation = await usableInvitation(input.token)
  const prisma = await getPrisma()
  const existing = await prisma.user.findUnique({ where: { email: invitation.email } })
  if (existing && existing.id !== input.signedInUserId) {
    throw new Unauthorized(`An account for ${invitation.email} exists: sign in with it, then open the invitation again`)
  }
  if (!existing && (!input.name || !input.password)) throw new InvalidRequest('A name and a password (8 characters or more) create the account', { fields: ['name', 'password'] })
  const passwordHash = existing ? null : await hashPassword(input.password!)
  const userId = await prisma.$transaction(async tx => {
    // the single use, decided by the database: of two accepts at once, one updates the row and the other finds it used
    const claimed = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { acceptedAt: new Date() } })
    if (claimed.count === 0) throw new Conflict('This invitation has already been accepted')
    const user = existing ?? (await tx.user.create({ data: { email: invitation.email, name: input.name!, passwordHash: passwordHash! } }))
    await tx.membership.upsert({
      where: { organizationId_userId: { organizationId: invitation.organizationId, userId: user.id } },
      create: { organizationId: invitation.organizationId, userId: user.id, role: invitation.role },
      update: {},
    })
    return user.id
  })
  await recordAudit(
    { organizationId: invitation.organizationId, actor: { type: 'user', userId } },
    { action: 'invitation.accepted', target: { type: 'invitation', id: invitation.id, name: invitation.email }, ...input.request },
  )
  return { organizationId: invitation.organizationId, organizationName: invitation.organization.name, email: invitation.email, role: invitation.role, accountCreated: !existing }
}
