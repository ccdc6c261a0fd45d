import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { CreatedInvitation, InvitationBody, InvitationResource } from '@/lib/domain/members'
import { createInvitation, listInvitations } from '@/lib/members'

/**
 * The site's address as the caller reached it (its Host, or the proxy's X-Forwarded-Host / -Proto), for the link:
 * Next's own request URL names the address the server listens on, which the invitee's browser may not reach.
 * NEXTAUTH_URL, when set, wins (lib/members/invitations.ts).
 */
function siteOrigin(req: Request): string {
  const url = new URL(req.url)
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host') ?? url.host
  const proto = req.headers.get('x-forwarded-proto') ?? url.protocol.replace(/:$/, '')
  return `${proto.split(',')[0].trim()}://${host.split(',')[0].trim()}`
}

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/invitations', {
  GET: endpoint({
    summary: 'The pending invitations (their links are not shown again)',
    tag: 'Account',
    access: { scope: 'admin' },
    response: z.array(InvitationResource),
    handler: ({ ctx }) => listInvitations(ctx),
  }),
  POST: endpoint({
    summary: 'Invite someone by email with a role (the link is answered once; mailed when SMTP_URL is set)',
    description: 'The link is valid for 7 days and for one use. Only an owner may invite an owner.',
    tag: 'Account',
    access: { scope: 'admin' },
    body: InvitationBody,
    response: CreatedInvitation,
    status: 201,
    handler: ({ ctx, body, req }) => createInvitation(ctx, body, siteOrigin(req)),
  }),
})
