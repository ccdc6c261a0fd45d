import { usePasswordReset } from '@/lib/auth/password-reset'
import { PasswordResetDone, PasswordResetUseBody } from '@/lib/domain/sign-in'
import { clientAddress } from '@/lib/http/route'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/password-resets/{token}', {
  // no key or session: the token is the credential, good once
  POST: endpoint({
    summary: 'Set a new password with a reset link (its token), once',
    tag: 'Account',
    access: 'public',
    body: PasswordResetUseBody,
    response: PasswordResetDone,
    handler: ({ params, body, req }) => usePasswordReset(params.token, body.password, clientAddress(req)),
  }),
})
