import { createHash, randomBytes } from 'node:crypto'
import { getPrisma } from '@/lib/db/client'
import { NotFound } from '@/lib/http/errors'
import type { ApiKeyResource } from '@/lib/domain/account'
import type { TenantContext } from '@/lib/domain/tenant'

export type { ApiKeyResource }

// Secrets look like "ads_" + 43 url-safe characters: the prefix says what it is (and lets secret scanners find
// leaked keys); the first 12 characters are kept in clear so the UI can tell keys apart.
const SECRET_PREFIX = 'ads_'
const SHOWN_PREFIX_LENGTH = 12
// lastUsedAt is informative: write it at most once a minute per key, not on every request
const LAST_USED_RESOLUTION_MS = 60_000

export function generateApiKeySecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url')
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A secret given by the operator (INIT_API_KEY) must be hard to guess too. */
export function isAcceptableSecret(secret: string): boolean {
  return secret.length >= 20 && secret.length <= 200 && /^[\x21-\x7e]+$/.test(secret)
}


type ApiKeyRow = { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }

function toResource(key: ApiKeyRow): ApiKeyResource {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

/** Creates a key; the secret is returned this once and never stored. */
export async function createApiKey(
  ctx: TenantContext,
  name: string,
  secret = generateApiKeySecret(),
): Promise<{ apiKey: ApiKeyResource; secret: string }> {
  const prisma = await getPrisma()
  const key = await prisma.apiKey.create({
    data: { organizationId: ctx.organizationId, name, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: hashApiKey(secret) },
  })
  return { apiKey: toResource(key), secret }
}

export async function listApiKeys(ctx: TenantContext, { includeRevoked = false } = {}): Promise<ApiKeyResource[]> {
  const prisma = await getPrisma()
  const keys = await prisma.apiKey.findMany({
    where: { organizationId: ctx.organizationId, ...(includeRevoked ? {} : { revokedAt: null }) },
    orderBy: { createdAt: 'desc' },
  })
  return keys.map(toResource)
}

export async function revokeApiKey(ctx: TenantContext, id: string): Promise<ApiKeyResource> {
  const prisma = await getPrisma()
  const key = await prisma.apiKey.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!key) throw new NotFound('API key')
  if (key.revokedAt) return toResource(key)
  return toResource(await prisma.apiKey.update({ where: { id, organizationId: ctx.organizationId }, data: { revokedAt: new Date() } }))
}

/** The organization a secret belongs to, or null when it is unknown or revoked. */
export async function resolveApiKey(secret: string): Promise<{ organizationId: string; apiKeyId: string } | null> {
  const prisma = await getPrisma()
  const key = await prisma.apiKey.findUnique({ where: { hash: hashApiKey(secret) } })
  if (!key || key.revokedAt) return null
  const now = new Date()
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await prisma.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } })
  }
  return { organizationId: key.organizationId, apiKeyId: key.id }
}
