import { describe, expect, test } from 'vitest'
import { getPrisma } from '@/lib/db/client'
import { memberWithPassword, signInFrom } from '../helpers/sign-in'

// Issue 24: sign-in throttling, through the credentials provider as next-auth calls it. Ten failures of an account in
// 15 minutes refuse it, the right password too, until the window passes; thirty of an address refuse that address.
// Over HTTP against the built server (no session cookie, the redirect's error): e2e/sign-in.spec.ts.

const PASSWORD = 'the right password 1'
let n = 0
const newAddress = () => `198.51.100.${++n}`

/** Moves the stored attempts back by `minutes`: the window passing without waiting for it. */
async function ageAttempts(email: string, minutes: number) {
  const prisma = await getPrisma()
  for (const a of await prisma.signInAttempt.findMany({ where: { email } })) {
    await prisma.signInAttempt.update({ where: { id: a.id }, data: { createdAt: new Date(a.createdAt.getTime() - minutes * 60_000) } })
  }
}

describe('sign-in throttling', () => {
  test('after 30 wrong passwords the right one is refused, saying when to retry', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    for (let i = 0; i < 30; i++) expect(await signInFrom(address, email, `wrong ${i}`)).toMatch(/^(wrong|SignInThrottled:)/)
    const started = Date.now()
    const refused = await signInFrom(address, email, PASSWORD)
    const [code, retryAt] = refused.split(/:(.+)/)
    expect(code).toBe('SignInThrottled')
    // until the tenth newest failure is 15 minutes old
    expect(new Date(retryAt).getTime()).toBeGreaterThan(started + 14 * 60_000)
    expect(new Date(retryAt).getTime()).toBeLessThanOrEqual(Date.now() + 15 * 60_000)
  })

  test('the eleventh attempt is the first refused', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    for (let i = 0; i < 10; i++) expect(await signInFrom(address, email, 'wrong')).toBe('wrong')
    expect(await signInFrom(address, email, PASSWORD)).toMatch(/^SignInThrottled:/)
  })

  test('wrong passwords sent together are counted one after another: the eleventh and later are refused', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => signInFrom(newAddress(), email, `guess ${i}`)))
    // before, each attempt was stored only after its password check, so all 16 were checked
    expect(answers.filter(a => a === 'wrong')).toHaveLength(10)
    expect(answers.filter(a => a.startsWith('SignInThrottled:'))).toHaveLength(6)
    const prisma = await getPrisma()
    expect(await prisma.signInAttempt.count({ where: { email } })).toBe(10)
  })

  test('another account is not affected by one being refused', async () => {
    const locked = await memberWithPassword(PASSWORD)
    const other = await memberWithPassword(PASSWORD)
    for (let i = 0; i < 10; i++) await signInFrom(newAddress(), locked.email, 'wrong')
    expect(await signInFrom(newAddress(), locked.email, PASSWORD)).toMatch(/^SignInThrottled:/)
    expect(await signInFrom(newAddress(), other.email, PASSWORD)).toBe('signed in')
  })

  test('once the window has passed the account signs in again', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    for (let i = 0; i < 10; i++) await signInFrom(address, email, 'wrong')
    expect(await signInFrom(address, email, PASSWORD)).toMatch(/^SignInThrottled:/)
    await ageAttempts(email, 16)
    expect(await signInFrom(address, email, PASSWORD)).toBe('signed in')
  })

  test('a successful sign-in clears the failures before it', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    for (let i = 0; i < 9; i++) await signInFrom(newAddress(), email, 'wrong')
    expect(await signInFrom(newAddress(), email, PASSWORD)).toBe('signed in')
    for (let i = 0; i < 9; i++) await signInFrom(newAddress(), email, 'wrong')
    expect(await signInFrom(newAddress(), email, PASSWORD)).toBe('signed in')
  })

  test('thirty failures from one address refuse that address for every account, not other addresses', async () => {
    const { email } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    for (let i = 0; i < 30; i++) await signInFrom(address, `guess-${n}-${i}@example.com`, 'wrong')
    expect(await signInFrom(address, email, PASSWORD)).toMatch(/^SignInThrottled:/)
    expect(await signInFrom(newAddress(), email, PASSWORD)).toBe('signed in')
  })

  test('without a known client address only the account is counted, so strangers cannot refuse everyone', async () => {
    for (let i = 0; i < 30; i++) await signInFrom('', `stranger-${i}@example.com`, 'wrong')
    const { email } = await memberWithPassword(PASSWORD)
    expect(await signInFrom('', email, PASSWORD)).toBe('signed in')
  })

  test('the limits are settings', async () => {
    process.env.SIGN_IN_MAX_FAILURES = '3'
    try {
      const { email } = await memberWithPassword(PASSWORD)
      for (let i = 0; i < 3; i++) await signInFrom(newAddress(), email, 'wrong')
      expect(await signInFrom(newAddress(), email, PASSWORD)).toMatch(/^SignInThrottled:/)
    } finally {
      delete process.env.SIGN_IN_MAX_FAILURES
    }
  })

  test('an unknown email is throttled as a known one is, so the refusal does not tell which exist', async () => {
    const address = newAddress()
    for (let i = 0; i < 10; i++) expect(await signInFrom(address, 'nobody-here@example.com', 'wrong')).toBe('wrong')
    expect(await signInFrom(address, 'nobody-here@example.com', 'wrong')).toMatch(/^SignInThrottled:/)
  })
})

describe('sign-in audit', () => {
  test('a failure and a success are audited with the email as the target and the client address', async () => {
    const { email, organizationId, user } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    await signInFrom(address, email, 'wrong')
    await signInFrom(address, email, PASSWORD)
    const prisma = await getPrisma()
    const entries = await prisma.auditEntry.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } })
    expect(entries.map(e => e.action)).toEqual(['auth.sign_in_failed', 'auth.sign_in'])
    for (const e of entries) expect(e).toMatchObject({ actorId: user.id, actorLabel: email, targetType: 'user', targetName: email, clientAddress: address })
  })

  test('a refused attempt is audited as throttled and does not push the window on', async () => {
    const { email, organizationId } = await memberWithPassword(PASSWORD)
    const address = newAddress()
    for (let i = 0; i < 10; i++) await signInFrom(address, email, 'wrong')
    await signInFrom(address, email, PASSWORD)
    const prisma = await getPrisma()
    expect(await prisma.auditEntry.count({ where: { organizationId, action: 'auth.sign_in_throttled' } })).toBe(1)
    expect(await prisma.signInAttempt.count({ where: { email } })).toBe(10)
  })
})
