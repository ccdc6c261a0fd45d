import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { INVITATION_TTL_DAYS } from '@/lib/domain/members'
import { logger } from '@/lib/logger'
import { mailer } from '@/lib/support/mail'

/**
 * Mails the invitation's link when SMTP_URL is set; answers whether it was sent. A mail server that is down does not
 * undo the invitation: the link is shown to copy in the dashboard either way, and the failure is logged (without the link).
 */
export async function mailInvitation(organizationId: string, email: string, role: Role, url: string): Promise<boolean> {
  const smtp = config().SMTP_URL
  if (!smtp) return false
  try {
    const prisma = await getPrisma()
    const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { name: true } })
    const name = org?.name ?? 'an organization'
    const text = `You are invited to join "${name}" as ${role}.\n\nAccept the invitation (valid for ${INVITATION_TTL_DAYS} days): ${url}\n`
    await (await mailer(smtp)).sendMail({ from: config().SMTP_FROM, to: [email], subject: `Invitation to join ${name}`, text })
    return true
  } catch (error) {
    logger.error('invitation e-mail not sent', { organizationId, error: error instanceof Error ? error.message : String(error) })
    return false
  }
}
