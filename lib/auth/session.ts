import type { AuthOptions } from 'next-auth'
import CredentialsProvider from 'next-auth/providers/credentials'
import { decode } from 'next-auth/jwt'
import { getPrisma } from '@/lib/db/client'
import { authSecret } from './auth-secret'
import { verifyPassword } from './passwords'

// Behind a reverse proxy set NEXTAUTH_URL; otherwise next-auth takes the origin from the request's Host.
process.env.AUTH_TRUST_HOST ??= 'true'

/** next-auth's options, built on first use (the secret may live in DATA_DIR, which `next build` must not touch). */
export function authOptions(): AuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: 30 * 24 * 3600 },
    pages: { signIn: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials) {
          const email = credentials?.email?.trim().toLowerCase()
          if (!email || !credentials?.password) return null
          const prisma = await getPrisma()
          const user = await prisma.user.findUnique({ where: { email } })
          if (!user || !(await verifyPassword(user.passwordHash, credentials.password))) return null
          return { id: user.id, email: user.email, name: user.name }
        },
      }),
    ],
    callbacks: {
      jwt: ({ token, user }) => (user ? { ...token, sub: user.id } : token),
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
  }
}

const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token']

function readCookies(header: string | null): Map<string, string> {
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
      if (jwt?.sub) return jwt.sub
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
