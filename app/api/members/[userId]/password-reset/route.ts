import { createPasswordReset } from '@/lib/auth/password-reset'
import { PasswordResetLink } from '@/lib/domain/sign-in'
import { publicOrigin } from '@/lib/http/route'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/members/{userId}/password-reset', {
  POST: endpoint({
    summary: "Make a link that sets a member's password (once, within 24 hours)",
    description: 'Hand the URL to the member; an earlier unused link stops working. An owner\'s password is reset by an owner only.',
    tag: 'Account',
    access: { scope: 'admin' },
    response: PasswordResetLink,
    status: 201,
    handler: ({ ctx, params, req }) => createPasswordReset(ctx, params.userId, publicOrigin(req)),
  }),
})
