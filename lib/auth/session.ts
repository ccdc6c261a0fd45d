import type { AuthOptions } from 'next-auth'
import CredentialsProvider from 'next-auth/providers/credentials'
import { decode } from 'next-auth/jwt'
import { logger } from '@/lib/logger'
import { authSecret } from './auth-secret'
import { getPrisma } from '@/lib/db/client'
import { clientAddress } from '@/lib/http/route'
import { endSessions, isSessionCurrent, SESSION_VERSION_CLAIM } from './session-version'
import { auditSignIn, signInWithPassword } from './sign-in'
import { admitSsoUser, ssoProvider, SSO_NOT_ADMITTED, SSO_PROVIDER_ID } from './sso'

// Behind a reverse proxy set NEXTAUTH_URL; otherwise next-auth takes the origin from the request's Host.
process.env.AUTH_TRUST_HOST ??= 'true'

/**
 * next-auth's options, built on first use (the secret may live in DATA_DIR, which `next build` must not touch). The
 * sign-in route passes the client's address, for the audit entry of a single sign-on.
 */
export function authOptions(request?: { clientAddress: string }): AuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
    // errors (a throttled or refused sign-in) are shown by the sign-in page, from its ?error=
    pages: { signIn: '/login', error: '/login' },
    // an ended session (signed out elsewhere, password changed) is an ordinary event, not an error to log each time
    logger: {
      error: (code, metadata) => {
        if (code === 'JWT_SESSION_ERROR') return
        logger.error(`next-auth: ${code}`, { metadata })
      },
      warn: code => logger.warn(`next-auth: ${code}`),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        // throttled: throws SignInThrottled, whose message next-auth puts in the redirect's ?error=
        async authorize(credentials, req) {
          const email = credentials?.email?.trim().toLowerCase()
          if (!email || !credentials?.password) return null
          const address = clientAddress(new Request('http://local', { headers: headersOf(req?.headers) }))
          const user = await signInWithPassword(email, credentials.password, address)
          if (!user) return null
          return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion }
        },
      }),
      ...[ssoProvider()].filter(p => p !== null),
    ],
    callbacks: {
      signIn: ({ user, account, profile }) => (account?.provider === SSO_PROVIDER_ID ? admitSingleSignOn(user, profile, request?.clientAddress) : true),
      // the session version is copied in at sign-in and checked on every read: a revoked session is ended (next-auth
      // clears the cookie when this callback throws)
      jwt: async ({ token, user, account }) => {
        if (user && account?.provider === SSO_PROVIDER_ID) return { ...token, ...(await ssoSessionClaims(user.email!)) }
        if (user) return { ...token, sub: user.id, [SESSION_VERSION_CLAIM]: (user as { sessionVersion?: number }).sessionVersion ?? 0 }
        if (!token.sub || !(await isSessionCurrent(token.sub, token[SESSION_VERSION_CLAIM]))) throw new Error('The session has ended')
        return token
      },
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
    events: {
      signIn: async ({ user, account }) => {
        if (account?.provider === SSO_PROVIDER_ID && user.email) await auditSignIn('auth.sign_in', user.email, request?.clientAddress ?? 'unknown', 'sso')
      },
      signOut: async ({ token }) => {
        if (token?.sub) await endSessions(token.sub, token[SESSION_VERSION_CLAIM])
      },
    },
  }
}

/**
 * Single sign-on admits members, invited people and allowed domains only (lib/auth/sso.ts); anyone else goes back to
 * the sign-in page with the reason. A refusal naming a member's account (an unverified email) is in that member's
 * organizations' audit logs.
 */
async function admitSingleSignOn(user: { email?: string | null; name?: string | null }, profile: unknown, clientAddress = 'unknown'): Promise<true | string> {
  const verified = (profile as { email_verified?: boolean } | undefined)?.email_verified
  if (await admitSsoUser(user.email, user.name, verified)) return true
  if (user.email) await auditSignIn('auth.sign_in_failed', user.email, clientAddress, 'sso')
  return `/login?error=${SSO_NOT_ADMITTED}`
}

/** Our user behind a single sign-on (the identity provider's id is not ours), with their session version. */
async function ssoSessionClaims(email: string) {
  const prisma = await getPrisma()
  const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, sessionVersion: true } })
  return { sub: user.id, [SESSION_VERSION_CLAIM]: user.sessionVersion }
}

/** next-auth hands authorize() the request's headers as a plain object. */
function headersOf(given: unknown): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries((given ?? {}) as Record<string, unknown>)) if (typeof value === 'string') headers.set(name, value)
  return headers
}

const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token']

export function readCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=')
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  return cookies
}

/** The signed-in user's id from next-auth's session cookie (whole or chunked), or null. */
export async function sessionUserId(req: Request): Promise<string | null> {
  const cookies = readCookies(req.headers.get('cookie'))
  for (const name of SESSION_COOKIES) {
    let token = cookies.get(name)
    if (!token) {
      const chunks = [...cookies.keys()].filter(k => k.startsWith(`${name}.`)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
      token = chunks.map(k => cookies.get(k)).join('') || undefined
    }
    if (!token) continue
    try {
      const jwt = await decode({ token, secret: authSecret() })
      if (jwt?.sub && (await isSessionCurrent(jwt.sub, jwt[SESSION_VERSION_CLAIM]))) return jwt.sub
    } catch {}
  }
  return null
}

/**
 * A session cookie only counts on requests from our own pages. Browsers send Sec-Fetch-Site and, on state-changing
 * requests, Origin; a cross-site request with a session is treated as unauthenticated.
 */
export function isSameOrigin(req: Request): boolean {
  const site = req.headers.get('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') return false
  const origin = req.headers.get('origin')
  if (!origin) return true
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host') ?? new URL(req.url).host
  try {
    return new URL(origin).host === host
  } catch {
    return false
  }
}
