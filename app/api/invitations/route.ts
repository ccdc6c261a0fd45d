import { z } from 'zod'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { CreatedInvitation, InvitationBody, InvitationResource } from '@/lib/domain/members'
import { createInvitation, listInvitations } from '@/lib/members'

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
    handler: ({ ctx, body, req }) => createInvitation(ctx, body, new URL(req.url).origin),
  }),
})
