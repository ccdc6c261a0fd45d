import { encode } from 'next-auth/jwt'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import * as apiKeys from '@/app/api/api-keys/route'
import { safeCallbackPath } from '@/components/auth/callback-url'
import { hashPassword } from '@/lib/auth/passwords'
import { authOptions } from '@/lib/auth/session'
import { changePassword } from '@/lib/auth/session-version'
import { getPrisma } from '@/lib/db/client'
import { call } from './helpers/http'

// Issue 22, points 4 and 5 where they can be seen without a server (the HTTP side is e2e/hardening-http.spec.ts):
// the sign-in destination, sessions that end, and a sign-in that takes as long for an unknown account.

async function member(password = 'correct horse battery') {
  const prisma = await getPrisma()
  const org = await prisma.organization.create({ data: { name: 'Session org' } })
  const user = await prisma.user.create({ data: { email: `u${Date.now()}${Math.random()}@example.com`, passwordHash: await hashPassword(password) } })
  await prisma.membership.create({ data: { organizationId: org.id, userId: user.id, role: 'owner' } })
  return user
}

const cookieOf = async (claims: Record<string, unknown>) => `next-auth.session-token=${await encode({ token: claims, secret: process.env.NEXTAUTH_SECRET! })}`
const listKeys = (cookie: string) => call(apiKeys.GET, '/api/api-keys', { headers: { cookie, 'sec-fetch-site': 'same-origin' } })
const provider = () => (authOptions().providers[0] as unknown as { options: { authorize: (c: Record<string, string>) => Promise<unknown> } }).options

describe('dashboard sessions end', () => {
  test('signing out ends every session the user had', async () => {
    const user = await member()
    const cookie = await cookieOf({ sub: user.id, sv: 0 })
    expect((await listKeys(cookie)).status).toBe(200)
    await authOptions().events!.signOut!({ token: { sub: user.id, sv: 0 }, session: null as never })
    expect((await listKeys(cookie)).status).toBe(401)
  })

  test('changing the password ends every session of the user', async () => {
    const user = await member()
    const cookie = await cookieOf({ sub: user.id, sv: 0 })
    await changePassword(user.id, 'a new password 123')
    expect((await listKeys(cookie)).status).toBe(401)
    // a session made after the change works
    expect((await listKeys(await cookieOf({ sub: user.id, sv: 1 }))).status).toBe(200)
  })

  test("a session cookie of a deleted user reads nothing", async () => {
    const user = await member()
    const cookie = await cookieOf({ sub: user.id, sv: 0 })
    const prisma = await getPrisma()
    await prisma.user.delete({ where: { id: user.id } })
    expect((await listKeys(cookie)).status).toBe(401)
  })

  test('signing in writes the session version into the session', async () => {
    const user = await member('correct horse battery')
    await changePassword(user.id, 'correct horse battery 2')
    const signedIn = (await provider().authorize({ email: user.email, password: 'correct horse battery 2' })) as { id: string }
    const token = await authOptions().callbacks!.jwt!({ token: {}, user: signedIn as never, account: null })
    expect(token).toMatchObject({ sub: user.id, sv: 1 })
  })
})

describe('sign-in timing', () => {
  // two dozen failures in a row: the throttle (tests/auth/sign-in-throttle.test.ts) would refuse them unchecked
  beforeEach(() => {
    process.env.SIGN_IN_MAX_FAILURES = '1000'
    process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = '1000'
  })
  afterEach(() => {
    delete process.env.SIGN_IN_MAX_FAILURES
    delete process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS
  })

  test('an unknown account takes as long to refuse as a wrong password', async () => {
    const user = await member()
    const time = async (email: string) => {
      const started = performance.now()
      expect(await provider().authorize({ email, password: 'not the password' })).toBeNull()
      return performance.now() - started
    }
    await time(user.email)
    await time('warm-up@example.com')
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 11; i++) {
      known.push(await time(user.email))
      unknown.push(await time(`nobody-${i}@example.com`))
    }
    // the password check is most of the time: without it an unknown account took a fifth of a known one's or less;
    // the margin is for a loaded machine, where one side can be slowed by other work
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5)
  })
})

describe('where signing in leads', () => {
  test.each([
    ['/\t/other-host/page'],
    ['/\n/other-host'],
    ['/\r\nLocation: http://evil.example'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['/x\\..\\'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['\t/agents'],
    ['/login'],
    ['/login?callbackUrl=/agents'],
  ])('%j leads to "/", never elsewhere', raw => {
    expect(safeCallbackPath(raw, 'http://localhost:3000')).toBeNull()
  })

  test('a path of this site, or a URL of this origin, leads there', () => {
    expect(safeCallbackPath('/datastores?tab=1#x')).toBe('/datastores?tab=1#x')
    expect(safeCallbackPath('http://localhost:3000/agents/abc', 'http://localhost:3000')).toBe('/agents/abc')
  })
})
