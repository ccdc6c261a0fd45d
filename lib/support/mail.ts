import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import type { SupportConversation } from './conversation'

// E-mail to the team when SMTP_URL is set (DESIGN.md §11): a visitor asks for a person, or a conversation is resolved,
// told to its assignee, else to the organization's owners and admins. Sent after the change, never in its way: a
// mail server that is slow or down is logged, the visitor's request has already succeeded.

type Mailer = { sendMail: (message: { from: string; to: string[]; subject: string; text: string }) => Promise<unknown> }

const holder = globalThis as unknown as { __supportMailer?: { url: string; mailer: Mailer } }

/** The SMTP transport of SMTP_URL, made once per process (the invitations of lib/members send through it too). */
export async function mailer(url: string): Promise<Mailer> {
  if (holder.__supportMailer?.url === url) return holder.__supportMailer.mailer
  const nodemailer = await import('nodemailer')
  const created = nodemailer.createTransport(url) as unknown as Mailer
  holder.__supportMailer = { url, mailer: created }
  return created
}

/** Who is told: the assignee, else the owners and admins. */
async function recipients(c: SupportConversation): Promise<string[]> {
  const prisma = await getPrisma()
  if (c.assigneeId) {
    const user = await prisma.user.findUnique({ where: { id: c.assigneeId }, select: { email: true } })
    if (user) return [user.email]
  }
  const admins = await prisma.membership.findMany({ where: { organizationId: c.organizationId, role: { in: ['owner', 'admin'] } }, select: { user: { select: { email: true } } } })
  return admins.map(m => m.user.email)
}

function messageOf(c: SupportConversation, leadEmail: string | null): { subject: string; text: string } {
  const title = c.title ?? 'a conversation'
  const link = process.env.NEXTAUTH_URL ? `${process.env.NEXTAUTH_URL.replace(/\/+$/, '')}/conversations?c=${encodeURIComponent(c.id)}` : `conversation ${c.id}`
  if (c.status === 'HUMAN_REQUESTED') {
    const contact = leadEmail ? `The visitor left ${leadEmail}.\n` : ''
    return { subject: `A visitor asks for a person: ${title}`, text: `A visitor asked for someone from the team in "${title}".\n${contact}\nOpen it: ${link}\n` }
  }
  return { subject: `Resolved: ${title}`, text: `"${title}" was marked resolved.\n\nOpen it: ${link}\n` }
}

/** Sends the mail of a status change when SMTP_URL is set; resolves once it is sent or has failed (logged). */
export async function mailTeam(c: SupportConversation, leadEmail: string | null): Promise<void> {
  const url = config().SMTP_URL
  if (!url) return
  try {
    const to = await recipients(c)
    if (to.length === 0) return
    await (await mailer(url)).sendMail({ from: config().SMTP_FROM, to, ...messageOf(c, leadEmail) })
  } catch (error) {
    logger.error('support e-mail not sent', { conversationId: c.id, status: c.status, error: error instanceof Error ? error.message : String(error) })
  }
}
