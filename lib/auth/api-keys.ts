import { createHash, randomBytes } from 'node:crypto'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { SCOPES, type Scope } from '@/lib/domain/access'
import type { ApiKeyResource } from '@/lib/domain/account'
import type { Grant, TenantContext } from '@/lib/domain/tenant'

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


type ApiKeyRow = { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; scopes: string[]; datastoreIds: string[]; agentIds: string[]; expiresAt: Date | null }

function toResource(key: ApiKeyRow): ApiKeyResource {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    scopes: key.scopes as Scope[],
    datastoreIds: key.datastoreIds,
    agentIds: key.agentIds,
    expiresAt: key.expiresAt?.toISOString() ?? null,
  }
}

/** What a key is limited to; nothing given: everything, as keys made before scopes. */
export interface KeyLimits {
  scopes?: Scope[]
  datastoreIds?: string[]
  agentIds?: string[]
  expiresAt?: Date | null
}

/** Creates a key; the secret is returned this once and never stored. Listed datastores and agents must be the organization's. */
export async function createApiKey(
  ctx: TenantContext,
  name: string,
  secret = generateApiKeySecret(),
  limits: KeyLimits = {},
): Promise<{ apiKey: ApiKeyResource; secret: string }> {
  const prisma = await getPrisma()
  await checkOwnIds(ctx, limits)
  const key = await prisma.apiKey.create({
    data: {
      organizationId: ctx.organizationId,
      name,
      prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
      hash: hashApiKey(secret),
      scopes: limits.scopes ?? [],
      datastoreIds: limits.datastoreIds ?? [],
      agentIds: limits.agentIds ?? [],
      expiresAt: limits.expiresAt ?? null,
    },
  })
  return { apiKey: toResource(key), secret }
}

/** 400 naming the ids that are not the organization's: a key cannot be limited to another's resources. */
async function checkOwnIds(ctx: TenantContext, limits: KeyLimits): Promise<void> {
  const prisma = await getPrisma()
  const own = async (ids: string[] | undefined, count: (ids: string[]) => Promise<{ id: string }[]>, field: string) => {
    if (!ids?.length) return
    const found = new Set((await count(ids)).map(r => r.id))
    const unknown = ids.filter(id => !found.has(id))
    if (unknown.length) throw new InvalidRequest(`Unknown ${field}: ${unknown.join(', ')}`, [{ path: field, message: 'not of this organization', code: 'invalid_value' }])
  }
  const where = (ids: string[]) => ({ where: { id: { in: ids }, organizationId: ctx.organizationId }, select: { id: true } })
  await own(limits.datastoreIds, ids => prisma.datastore.findMany(where(ids)), 'datastoreIds')
  await own(limits.agentIds, ids => prisma.agent.findMany(where(ids)), 'agentIds')
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

/** What a key may do: its scopes (none: all) and the datastores and agents it is limited to (none: all). */
export function grantOf(key: { scopes: string[]; datastoreIds: string[]; agentIds: string[] }): Grant {
  return {
    scopes: key.scopes.length ? (key.scopes as Scope[]) : SCOPES,
    ...(key.datastoreIds.length ? { datastoreIds: key.datastoreIds } : {}),
    ...(key.agentIds.length ? { agentIds: key.agentIds } : {}),
  }
}

/**
 * The organization a secret belongs to, or null when it is unknown, revoked or expired. Plain SQL, the times compared
 * by the database (issue 28: every API call reads its key).
 */
export async function resolveApiKey(secret: string): Promise<{ organizationId: string; apiKeyId: string; grant: Grant } | null> {
  const { sql } = await getDatabase()
  const now = Date.now()
  const [key] = await sql.query<{ id: string; organizationId: string; scopes: string[]; datastoreIds: string[]; agentIds: string[]; usable: boolean; seenLongAgo: boolean }>(
    `SELECT id, "organizationId", scopes, "datastoreIds", "agentIds",
            "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > $2::timestamp) AS usable,
            "lastUsedAt" IS NULL OR "lastUsedAt" < $3::timestamp AS "seenLongAgo"
       FROM "ApiKey" WHERE hash = $1`,
    [hashApiKey(secret), new Date(now).toISOString(), new Date(now - LAST_USED_RESOLUTION_MS).toISOString()],
  )
  if (!key?.usable) return null
  if (key.seenLongAgo) await sql.query(`UPDATE "ApiKey" SET "lastUsedAt" = $2::timestamp WHERE id = $1`, [key.id, new Date(now).toISOString()])
  return { organizationId: key.organizationId, apiKeyId: key.id, grant: grantOf(key) }
}
