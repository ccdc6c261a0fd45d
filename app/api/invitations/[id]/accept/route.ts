import { endpoint, endpoints } from '@/lib/api/endpoint'
import { sessionUserId } from '@/lib/auth/session'
import { AcceptedInvitation, AcceptInvitationBody } from '@/lib/domain/members'
import { clientAddress, requestIdOf } from '@/lib/http/route'
import { acceptInvitation } from '@/lib/members'

// `{id}` is the invitation's token here (Next names a path's parameter once: /api/invitations/{id} revokes by id)
export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/invitations/{id}/accept', {
  POST: endpoint({
    summary: "Accept an invitation with its token (the link's last segment)",
    description:
      'No API key: the token is the credential, and works once. A new email gets an account with the name and password given; an email that already has an account joins from that user\'s signed-in session (name and password are then not needed).',
    tag: 'Account',
    access: 'public',
    body: AcceptInvitationBody,
    response: AcceptedInvitation,
    handler: async ({ req, params, body }) =>
      acceptInvitation({ token: params.id, ...body, signedInUserId: await sessionUserId(req), request: { clientAddress: clientAddress(req), requestId: requestIdOf(req) } }),
  }),
})
