import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { authOptions } from '@/lib/auth/session'
import { admitByInvitation, admitSsoUser, ssoProvider } from '@/lib/auth/sso'
import { getPrisma } from '@/lib/db/client'
import { memberWithPassword } from '../helpers/sign-in'

// Issue 24: who single sign-on lets in (lib/auth/sso.ts). The whole flow against a real OpenID provider, in
// Chromium: e2e/sso.spec.ts.

let firstOrganizationId: string

beforeAll(async () => {
  const prisma = await getPrisma()
  firstOrganizationId = (await prisma.organization.create({ data: { name: 'The first organization' } })).id
})

afterEach(() => {
  for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ALLOWED_DOMAINS', 'OIDC_DEFAULT_ROLE', 'OIDC_ORGANIZATION_ID']) delete process.env[name]
})

const membershipsOf = async (email: string) => {
  const prisma = await getPrisma()
  return prisma.membership.findMany({ where: { user: { email } }, select: { organizationId: true, role: true } })
}

describe('single sign-on admission', () => {
  test('an email of an allowed domain becomes a member of the first organization with the default role', async () => {
    process.env.OIDC_ALLOWED_DOMAINS = 'other.example, Allowed.Example'
    expect(await admitSsoUser('grace@allowed.example', 'Grace')).toBe(true)
    expect(await membershipsOf('grace@allowed.example')).toEqual([{ organizationId: firstOrganizationId, role: 'viewer' }])
  })

  test('OIDC_DEFAULT_ROLE sets that role', async () => {
    process.env.OIDC_ALLOWED_DOMAINS = 'allowed.example'
    process.env.OIDC_DEFAULT_ROLE = 'editor'
    await admitSsoUser('linus@allowed.example', null)
    expect(await membershipsOf('linus@allowed.example')).toEqual([{ organizationId: firstOrganizationId, role: 'editor' }])
  })

  test('OIDC_ORGANIZATION_ID sets the organization they join; an id of no organization admits no one', async () => {
    const prisma = await getPrisma()
    const chosen = await prisma.organization.create({ data: { name: 'The support team' } })
    process.env.OIDC_ALLOWED_DOMAINS = 'allowed.example'
    process.env.OIDC_ORGANIZATION_ID = chosen.id
    expect(await admitSsoUser('ada@allowed.example', 'Ada')).toBe(true)
    expect(await membershipsOf('ada@allowed.example')).toEqual([{ organizationId: chosen.id, role: 'viewer' }])
    process.env.OIDC_ORGANIZATION_ID = 'no-such-organization'
    expect(await admitSsoUser('barbara@allowed.example', 'Barbara')).toBe(false)
    expect(await prisma.user.count({ where: { email: 'barbara@allowed.example' } })).toBe(0)
  })

  test('an existing member comes in whatever the domain, keeping their role', async () => {
    const { email, organizationId } = await memberWithPassword('a password 123', 'admin')
    expect(await admitSsoUser(email, null)).toBe(true)
    expect(await membershipsOf(email)).toEqual([{ organizationId, role: 'admin' }])
  })

  test('another domain is refused and nothing is created', async () => {
    process.env.OIDC_ALLOWED_DOMAINS = 'allowed.example'
    expect(await admitSsoUser('eve@allowed.example.evil.test', 'Eve')).toBe(false)
    const prisma = await getPrisma()
    expect(await prisma.user.count({ where: { email: 'eve@allowed.example.evil.test' } })).toBe(0)
  })

  test('an email the provider says is unverified is refused, even of a member', async () => {
    const { email } = await memberWithPassword('a password 123')
    expect(await admitSsoUser(email, null, false)).toBe(false)
  })

  test("a refusal naming a member's account is in the audit log as a failed sign-in, with the client's address", async () => {
    const { email, organizationId, user } = await memberWithPassword('a password 123')
    const signIn = authOptions({ clientAddress: '203.0.113.9' }).callbacks!.signIn!
    const result = await signIn({ user: { id: 'sub-2', email }, account: { provider: 'oidc', type: 'oauth', providerAccountId: 'sub-2' }, profile: { email_verified: false } as never })
    expect(result).toBe('/login?error=SsoNotAdmitted')
    const prisma = await getPrisma()
    const entries = await prisma.auditEntry.findMany({ where: { organizationId, targetId: user.id } })
    expect(entries).toMatchObject([{ action: 'auth.sign_in_failed', actorId: user.id, targetName: email, clientAddress: '203.0.113.9' }])
  })

  test('a pending invitation admits its email, whatever the domain, into its organization with its role, once', async () => {
    const prisma = await getPrisma()
    const org = await prisma.organization.create({ data: { name: 'An inviting team' } })
    await prisma.invitation.create({ data: { organizationId: org.id, email: 'Hedy@Elsewhere.example', role: 'operator', tokenHash: `sso-test-${Date.now()}`, expiresAt: new Date(Date.now() + 86_400_000) } })
    expect(await admitSsoUser('hedy@elsewhere.example', 'Hedy')).toBe(true)
    expect(await membershipsOf('hedy@elsewhere.example')).toEqual([{ organizationId: org.id, role: 'operator' }])
    expect(await admitByInvitation('hedy@elsewhere.example')).toBeNull() // taken: single use
  })

  test('an expired or revoked invitation admits no one', async () => {
    const prisma = await getPrisma()
    const org = await prisma.organization.create({ data: { name: 'A team that changed its mind' } })
    const base = { organizationId: org.id, role: 'viewer' as const }
    await prisma.invitation.create({ data: { ...base, email: 'late@elsewhere.example', tokenHash: `sso-late-${Date.now()}`, expiresAt: new Date(Date.now() - 1000) } })
    await prisma.invitation.create({ data: { ...base, email: 'gone@elsewhere.example', tokenHash: `sso-gone-${Date.now()}`, expiresAt: new Date(Date.now() + 86_400_000), revokedAt: new Date() } })
    expect(await admitSsoUser('late@elsewhere.example', null)).toBe(false)
    expect(await admitSsoUser('gone@elsewhere.example', null)).toBe(false)
  })

  test('a refused person is sent to the sign-in page with the reason', async () => {
    const signIn = authOptions().callbacks!.signIn!
    const result = await signIn({ user: { id: 'sub-1', email: 'eve@elsewhere.example' }, account: { provider: 'oidc', type: 'oauth', providerAccountId: 'sub-1' }, profile: { email_verified: true } as never })
    expect(result).toBe('/login?error=SsoNotAdmitted')
  })

  test("the session names our user, not the provider's subject", async () => {
    const { email, user } = await memberWithPassword('a password 123')
    const jwt = authOptions().callbacks!.jwt!
    const token = await jwt({ token: {}, user: { id: 'provider-subject', email }, account: { provider: 'oidc', type: 'oauth', providerAccountId: 'provider-subject' } })
    expect(token).toMatchObject({ sub: user.id, sv: 0 })
  })
})

describe('the provider', () => {
  test('is off until the issuer, client id and secret are set', () => {
    expect(ssoProvider()).toBeNull()
    Object.assign(process.env, { OIDC_ISSUER: 'https://idp.example.com/realms/acme/', OIDC_CLIENT_ID: 'svc', OIDC_CLIENT_SECRET: 's3cret' })
    expect(ssoProvider()).toMatchObject({ id: 'oidc', wellKnown: 'https://idp.example.com/realms/acme/.well-known/openid-configuration', idToken: true })
    expect(authOptions().providers.map(p => p.id)).toEqual(['credentials', 'oidc'])
  })
})
