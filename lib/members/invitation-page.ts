import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { ApiError } from '@/lib/http/errors'
import { usableInvitation } from './invitations'

/** What the invitation page shows before accepting: whom it invites, where, as what; or why the link no longer works. */
export type InvitationPageState =
  | { usable: true; email: string; role: Role; organizationName: string; accountExists: boolean }
  | { usable: false; reason: string }

export async function invitationPageState(token: string): Promise<InvitationPageState> {
  try {
    const invitation = await usableInvitation(token)
    const prisma = await getPrisma()
    const accountExists = (await prisma.user.count({ where: { email: invitation.email } })) > 0
    return { usable: true, email: invitation.email, role: invitation.role, organizationName: invitation.organization.name, accountExists }
  } catch (error) {
    if (error instanceof ApiError) return { usable: false, reason: error.status === 404 ? 'This invitation link is not valid.' : error.message }
    throw error
  }
}
