import { endpoint, endpoints } from '@/lib/api/endpoint'
import { InvitationResource } from '@/lib/domain/members'
import { revokeInvitation } from '@/lib/members'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/invitations/{id}', {
  DELETE: endpoint({
    summary: 'Revoke a pending invitation (its link stops working)',
    tag: 'Account',
    access: { scope: 'admin' },
    response: InvitationResource,
    handler: ({ ctx, params }) => revokeInvitation(ctx, params.id),
  }),
})
