import { changeOwnPassword } from '@/lib/auth/account'
import { AccountResource, PasswordChangeBody } from '@/lib/domain/sign-in'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/account/password', {
  // every session of the user made before ends, this one too: the dashboard signs in again with the new password
  POST: endpoint({
    summary: "Change the signed-in user's password (the current one is required; a dashboard session only)",
    tag: 'Account',
    access: { scope: 'datastores:read' },
    body: PasswordChangeBody,
    response: AccountResource,
    handler: ({ ctx, body }) => changeOwnPassword(ctx, body.currentPassword, body.newPassword),
  }),
})
