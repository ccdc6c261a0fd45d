import { getPrisma } from '@/lib/db/client'
import { ROLE_SCOPES } from '@/lib/domain/access'
import type { TenantContext } from '@/lib/domain/tenant'
import { Unauthorized } from '@/lib/http/errors'
import { resolveApiKey } from './api-keys'
import { isSameOrigin, readCookies, sessionUserId } from './session'

export type { TenantContext }

/**
 * The cookie naming the organization a signed-in user works in (issue 24: a user may belong to several). Set by
 * POST /api/session/organization; it grants nothing by itself: the user's membership there is checked on every request.
 */
export const ORGANIZATION_COOKIE = 'ads-organization'

/** The membership a signed-in user acts in: in the organization the session names when they belong to it, else their first. */
export async function currentMembership(userId: string, organizationId?: string | null) {
  const prisma = await getPrisma()
  const named = organizationId ? await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } } }) : null
  return named ?? (await prisma.membership.findFirst({ where: { userId }, orderBy: { createdAt: 'asc' } }))
}

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/

/**
 * The caller's tenant: an API key in `Authorization: Bearer <key>`, else the dashboard's session cookie on a
 * same-origin request. Returns null when the request carries neither; throws Unauthorized when what it carries is
 * malformed, unknown or revoked.
 */
export async function identify(req: Request): Promise<TenantContext | null> {
  const header = req.headers.get('authorization')
  if (header !== null) {
    const match = BEARER.exec(header.trim())
    if (!match) throw new Unauthorized('Malformed Authorization header: expected "Bearer <API key>"')
    const key = await resolveApiKey(match[1])
    if (!key) throw new Unauthorized('Unknown, revoked or expired API key')
    return { organizationId: key.organizationId, actor: { type: 'api_key', apiKeyId: key.apiKeyId }, grant: key.grant }
  }
  if (!isSameOrigin(req)) return null
  const userId = await sessionUserId(req)
  if (!userId) return null
  return memberContext(userId, readCookies(req.headers.get('cookie')).get(ORGANIZATION_COOKIE))
}

/** A signed-in user's tenant: the organization they chose (the switcher's cookie) or their first, with their role's scopes; null without one. */
export async function memberContext(userId: string, organizationId?: string): Promise<TenantContext | null> {
  const membership = await currentMembership(userId, organizationId)
  if (!membership) return null
  return { organizationId: membership.organizationId, actor: { type: 'user', userId }, grant: { scopes: ROLE_SCOPES[membership.role] } }
}

/** Like identify(), but a caller without credentials is refused with 401. */
export async function authenticate(req: Request): Promise<TenantContext> {
  const ctx = await identify(req)
  if (!ctx) throw new Unauthorized()
  return ctx
}
