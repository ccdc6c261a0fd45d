import { z } from 'zod'
import { createApiKey, listApiKeys } from '@/lib/auth/api-keys'
import { ApiKeyResource, CreatedApiKey } from '@/lib/domain/account'
import { SCOPES } from '@/lib/domain/access'
import { IdParam } from '@/lib/http/body'
import { endpoint, endpoints } from '@/lib/api/endpoint'

const Ids = z.array(IdParam).max(100)

const ApiKeyCreateBody = z.object({
  name: z.string().trim().min(1).max(100),
  /** What the key may do; none given: everything */
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).optional(),
  /** The datastores and agents it may see; none given: all */
  datastoreIds: Ids.optional(),
  agentIds: Ids.optional(),
  expiresAt: z.iso.datetime().refine(t => Date.parse(t) > Date.now(), 'must be in the future').optional(),
})

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
      const { name, expiresAt, ...limits } = body
      const { apiKey, secret } = await createApiKey(ctx, name, undefined, { ...limits, expiresAt: expiresAt ? new Date(expiresAt) : null })
      return { ...apiKey, secret }
    },
  }),
})
