import { z } from 'zod'
import { createApiKey, listApiKeys } from '@/lib/auth/api-keys'
import { ApiKeyResource, CreatedApiKey } from '@/lib/domain/account'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const ApiKeyCreateBody = z.object({ name: z.string().trim().min(1).max(100) })

export const { GET, POST, PUT, PATCH, DELETE } = endpoints('/api/api-keys', {
  GET: endpoint({
    summary: "The organization's API keys",
    access: { scope: 'admin' },
    response: z.array(ApiKeyResource),
    handler: ({ ctx }) => listApiKeys(ctx),
  }),
  POST: endpoint({
    summary: 'Create an API key (its secret is shown once)',
    access: { scope: 'admin' },
    body: ApiKeyCreateBody,
    response: CreatedApiKey,
    status: 201,
    handler: async ({ ctx, body }) => {
      const { apiKey, secret } = await createApiKey(ctx, body.name)
      return { ...apiKey, secret }
    },
  }),
})
