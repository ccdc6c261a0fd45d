import http from 'node:http'
import type { AddressInfo } from 'node:net'
import NextAuth from 'next-auth'
import { authOptions } from '@/lib/auth/session'
import { hashPassword } from '@/lib/auth/passwords'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'

// Signing in as the login form does, over HTTP: GET /api/auth/csrf, then POST /api/auth/callback/credentials with the
// CSRF token, email and password (form-encoded, `json: true`), answered by next-auth's own handler with the service's
// options, on 127.0.0.1. (The App Router route file passes requests to the same handler, but needs Next's request scope
// for its cookies: here a plain Node server hands next-auth the query, body and cookies it parsed.)

let server: Promise<string> | undefined

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', d => parts.push(d)).on('end', () => resolve(Buffer.concat(parts).toString())).on('error', reject)
  })
}

function cookiesOf(header = ''): Record<string, string> {
  // as Next parses them: values URL-decoded
  return Object.fromEntries(header.split(';').map(p => p.trim().split(/=(.*)/s)).filter(([k]) => k).map(([k, v = '']) => [k, decodeURIComponent(v)]))
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const nextauth = url.pathname.replace(/^\/api\/auth\//, '').split('/')
  const body = req.method === 'POST' ? Object.fromEntries(new URLSearchParams(await readBody(req))) : undefined
  Object.assign(req, { query: { ...Object.fromEntries(url.searchParams), nextauth }, body, cookies: cookiesOf(req.headers.cookie) })
  const api = Object.assign(res, {
    status: (code: number) => ((res.statusCode = code), api),
    json: (value: unknown) => (res.setHeader('content-type', 'application/json'), res.end(JSON.stringify(value))),
    send: (value: unknown) => res.end(typeof value === 'string' ? value : JSON.stringify(value ?? '')),
  })
  await (NextAuth(authOptions()) as unknown as (req: unknown, res: unknown) => Promise<void>)(req, api)
}

/** next-auth's endpoints on 127.0.0.1, started once per test file. */
export function authServer(): Promise<string> {
  server ??= new Promise(resolve => {
    const s = http.createServer((req, res) => void serve(req, res).catch(() => ((res.statusCode = 500), res.end())))
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`))
    s.unref()
  })
  return server
}

export interface SignIn {
  /** next-auth accepted the credentials: it set a session cookie and did not send us to the error page. */
  ok: boolean
  status: number
  /** The headers of a same-origin dashboard request with that session cookie. */
  headers: Record<string, string>
}

const setCookies = (res: Response) => res.headers.getSetCookie().map(c => c.split(';')[0])

export async function signInWithCredentials(email: string, password: string): Promise<SignIn> {
  const base = await authServer()
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { 'x-forwarded-proto': 'http' } })
  const { csrfToken } = await csrf.json()
  const jar = setCookies(csrf)
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; '), 'x-forwarded-proto': 'http' },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${base}/`, json: 'true' }),
  })
  const answer = await res.json().catch(() => ({}))
  const session = setCookies(res).find(c => c.startsWith('next-auth.session-token='))
  const ok = Boolean(session) && !String(answer.url ?? '').includes('error=')
  return { ok, status: res.status, headers: { cookie: session ?? '', origin: 'http://localhost', 'sec-fetch-site': 'same-origin' } }
}

// Signing in through the credentials provider alone (issue 24, throttling):
// The dashboard's password sign-in as next-auth runs it: the credentials provider's authorize() with the request's
// headers (next-auth's route handler itself needs Next's request scope; the HTTP side is e2e/sign-in.spec.ts).

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string } | null>

/** "signed in", "wrong" (next-auth's CredentialsSignin) or the error code a refusal carries in the redirect. */
export async function signInFrom(address: string, email: string, password: string): Promise<string> {
  const provider = authOptions().providers.find(p => p.id === 'credentials') as unknown as { options: { authorize: Authorize } }
  try {
    return (await provider.options.authorize({ email, password }, { headers: { 'x-forwarded-for': address } })) ? 'signed in' : 'wrong'
  } catch (error) {
    return (error as Error).message
  }
}

let counter = 0

/** A member of a new organization with a password. */
export async function memberWithPassword(password: string, role: Role = 'owner') {
  const prisma = await getPrisma()
  const n = ++counter
  const org = await prisma.organization.create({ data: { name: `Sign-in org ${n}` } })
  const user = await prisma.user.create({ data: { email: `member-${n}-${Date.now()}@example.com`, passwordHash: await hashPassword(password) } })
  await prisma.membership.create({ data: { organizationId: org.id, userId: user.id, role } })
  return { user, organizationId: org.id, email: user.email }
}
