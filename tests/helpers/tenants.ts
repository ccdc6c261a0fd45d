import { createApiKey } from '@/lib/auth/api-keys'
import type { TenantContext } from '@/lib/domain/tenant'
import { getPrisma } from '@/lib/db/client'

export interface TestTenant {
  ctx: TenantContext
  key: string
  /** Headers of a request made with this tenant's API key. */
  headers: Record<string, string>
}

let counter = 0

/** A new organization with an API key, as a caller from outside would have. */
export async function createTenant(name = `Org ${++counter}`): Promise<TestTenant> {
  const prisma = await getPrisma()
  const org = await prisma.organization.create({ data: { name } })
  const ctx: TenantContext = { organizationId: org.id, actor: { type: 'api_key', apiKeyId: '' } }
  const { secret, apiKey } = await createApiKey(ctx, 'test key')
  ctx.actor = { type: 'api_key', apiKeyId: apiKey.id }
  return { ctx, key: secret, headers: { authorization: `Bearer ${secret}` } }
}
