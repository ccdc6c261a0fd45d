import { randomBytes } from 'node:crypto'
import type { OAuthConfig } from 'next-auth/providers/oauth'
import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'
import { logger } from '@/lib/logger'
import { hashPassword } from './passwords'

// Single sign-on (issue 24, DESIGN.md §10): next-auth's OpenID Connect client against OIDC_ISSUER, on when the issuer,
// client id and secret are set. Who may come in is ours to decide: an existing member, someone invited (the
// invitations' hook below), or an email of an allowed domain (OIDC_ALLOWED_DOMAINS), who is then made a member with
// OIDC_DEFAULT_ROLE. Everyone else is sent back to the sign-in page with SSO_NOT_ADMITTED.

/** The provider's id: its callback is /api/auth/callback/oidc, the redirect URI registered at the identity provider. */
export const SSO_PROVIDER_ID = 'oidc'
/** The error code of a refused single sign-on, shown on the sign-in page. */
export const SSO_NOT_ADMITTED = 'SsoNotAdmitted'

export interface SsoSettings {
  issuer: string
  clientId: string
  clientSecret: string
  name: string
}

export function ssoSettings(): SsoSettings | null {
  const env = config()
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return null
  return { issuer: env.OIDC_ISSUER.replace(/\/+$/, ''), clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, name: env.OIDC_NAME }
}

interface OidcClaims {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
}

/** next-auth's generic OAuth provider speaking OpenID Connect (discovery, PKCE, state, the ID token), or null when off. */
export function ssoProvider(): OAuthConfig<OidcClaims> | null {
  const sso = ssoSettings()
  if (!sso) return null
  return {
    id: SSO_PROVIDER_ID,
    name: sso.name,
    type: 'oauth',
    wellKnown: `${sso.issuer}/.well-known/openid-configuration`,
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    authorization: { params: { scope: 'openid email profile' } },
    idToken: true,
    checks: ['pkce', 'state'],
    profile: claims => ({ id: claims.sub, email: claims.email?.trim().toLowerCase() ?? null, name: claims.name ?? null, emailVerified: claims.email_verified }),
  }
}

/**
 * Admission by a pending invitation for this email (issue 24): the oldest usable one (not accepted, revoked or
 * expired) is taken, once, as the invitation page's accept would take it, and grants its organization and role.
 */
export async function admitByInvitation(email: string): Promise<{ organizationId: string; role: Role } | null> {
  const prisma = await getPrisma()
  const pending = await prisma.invitation.findFirst({
    where: { email: { equals: email, mode: 'insensitive' }, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'asc' },
  })
  if (!pending) return null
  const taken = await prisma.invitation.updateMany({ where: { id: pending.id, acceptedAt: null }, data: { acceptedAt: new Date() } })
  return taken.count === 1 ? { organizationId: pending.organizationId, role: pending.role } : null
}

function allowedDomains(): string[] {
  return config().OIDC_ALLOWED_DOMAINS.split(',').map(d => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean)
}

/**
 * The organization single sign-on provisions members into: OIDC_ORGANIZATION_ID's, else the first one made (the first
 * admin's). An id that names no organization admits no one: joining another one instead would be a guess.
 */
async function ssoOrganizationId(): Promise<string | null> {
  const prisma = await getPrisma()
  const chosen = config().OIDC_ORGANIZATION_ID
  if (chosen) {
    const found = await prisma.organization.findUnique({ where: { id: chosen }, select: { id: true } })
    if (!found) logger.error('OIDC_ORGANIZATION_ID names no organization: single sign-on admits no new member by domain', { organizationId: chosen })
    return found?.id ?? null
  }
  return (await prisma.organization.findFirst({ orderBy: { createdAt: 'asc' }, select: { id: true } }))?.id ?? null
}

/**
 * Whether the identity provider's user may come in, and their user made (with an unusable password) and member made
 * when they are new. An email the provider says is unverified is never trusted: it could name someone else's account.
 */
export async function admitSsoUser(email: string | null | undefined, name: string | null | undefined, emailVerified?: boolean): Promise<boolean> {
  if (!email || !email.includes('@') || emailVerified === false) return false
  const prisma = await getPrisma()
  const existing = await prisma.user.findUnique({ where: { email }, select: { id: true, memberships: { select: { id: true } } } })
  if (existing && existing.memberships.length > 0) return true
  const grant = (await admitByInvitation(email)) ?? (await admitByDomain(email))
  if (!grant) {
    logger.info('single sign-on refused: no membership, invitation or allowed domain', { domain: email.split('@')[1] })
    return false
  }
  const user = existing ?? (await prisma.user.create({ data: { email, name: name ?? null, passwordHash: await hashPassword(randomBytes(32).toString('base64url')) } }))
  await prisma.membership.upsert({
    where: { organizationId_userId: { organizationId: grant.organizationId, userId: user.id } },
    create: { organizationId: grant.organizationId, userId: user.id, role: grant.role },
    update: {},
  })
  return true
}

async function admitByDomain(email: string): Promise<{ organizationId: string; role: Role } | null> {
  const domain = email.split('@').pop()!.toLowerCase()
  if (!allowedDomains().includes(domain)) return null
  const organizationId = await ssoOrganizationId()
  return organizationId ? { organizationId, role: config().OIDC_DEFAULT_ROLE } : null
}
