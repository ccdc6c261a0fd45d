import { revokeApiKey } from '@/lib/auth/api-keys'
import { ApiKeyResource } from '@/lib/domain/account'
import { endpoint, endpoints } from '@/lib/api/endpoint'

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/api-keys/{id}', {
  // revoking keeps the row (`npm run keys -- list` shows it as revoked); the secret stops working at once
  DELETE: endpoint({
    summary: 'Revoke an API key',
    access: { scope: 'admin' },
    response: ApiKeyResource,
    handler: ({ ctx, params }) => revokeApiKey(ctx, params.id),
  }),
})
