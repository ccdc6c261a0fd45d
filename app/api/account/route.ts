import { readAccount } from '@/lib/auth/account'
import { AccountResource } from '@/lib/domain/sign-in'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/account', {
  GET: endpoint({
    summary: 'The signed-in user: email, organization and role (a dashboard session only)',
    tag: 'Account',
    access: { scope: 'datastores:read' },
    response: AccountResource,
    handler: ({ ctx }) => readAccount(ctx),
  }),
})
