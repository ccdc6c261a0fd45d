import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'

// Sign-in throttling (issue 24, DESIGN.md §10): password failures are stored (SignInAttempt), so every web process
// counts the same ones. An account (an email, known or not, so the refusal tells nothing of which exist) with
// SIGN_IN_MAX_FAILURES failures in the window since its last success is refused, even with the right password, until
// the oldest of those failures leaves the window; a client address with SIGN_IN_MAX_FAILURES_PER_ADDRESS failures
// (whatever the emails, successes do not clear it: an attacker's own account must not reset the count) likewise.

export interface SignInLimits {
  accountFailures: number
  addressFailures: number
  windowMs: number
}

export function signInLimits(): SignInLimits {
  const env = config()
  return { accountFailures: env.SIGN_IN_MAX_FAILURES, addressFailures: env.SIGN_IN_MAX_FAILURES_PER_ADDRESS, windowMs: env.SIGN_IN_WINDOW_MINUTES * 60_000 }
}

/** What lib/http/route.ts clientAddress() answers when the request names no address. */
const UNKNOWN_ADDRESS = 'unknown'

/** The error code next-auth carries in the sign-in redirect (`?error=SignInThrottled:<ISO time>`). */
export const SIGN_IN_THROTTLED = 'SignInThrottled'

/** A refused sign-in: its message is the code and the time the account or address may try again. */
export class SignInThrottled extends Error {
  constructor(readonly retryAt: Date) {
    super(`${SIGN_IN_THROTTLED}:${retryAt.toISOString()}`)
  }
}

/** When the `limit`-th newest failure leaves the window, or null while there are fewer than `limit`. */
function retryAtOf(failures: { createdAt: Date }[], limit: number, windowMs: number): Date | null {
  if (failures.length < limit) return null
  return new Date(failures[limit - 1].createdAt.getTime() + windowMs)
}

type Attempts = Pick<Awaited<ReturnType<typeof getPrisma>>, 'signInAttempt'>

/** When `email` from `clientAddress` may sign in again, or null when it may now. */
export async function throttledUntil(email: string, clientAddress: string, now = new Date(), limits = signInLimits(), db?: Attempts): Promise<Date | null> {
  const prisma = db ?? (await getPrisma())
  const windowStart = new Date(now.getTime() - limits.windowMs)
  const lastSuccess = await prisma.signInAttempt.findFirst({
    where: { email, succeeded: true, createdAt: { gt: windowStart } },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true },
  })
  const since = lastSuccess?.createdAt ?? windowStart
  const newest = { orderBy: { createdAt: 'desc' as const }, select: { createdAt: true } }
  const accountFailures = await prisma.signInAttempt.findMany({ where: { email, succeeded: false, createdAt: { gt: since } }, take: limits.accountFailures, ...newest })
  // no address known (a server not behind scripts/serve.mjs or a proxy): one shared bucket would let anyone refuse
  // everyone's sign-in, so only the account's limit applies
  const addressFailures = clientAddress === UNKNOWN_ADDRESS
    ? []
    : await prisma.signInAttempt.findMany({ where: { clientAddress, succeeded: false, createdAt: { gt: windowStart } }, take: limits.addressFailures, ...newest })
  const times = [retryAtOf(accountFailures, limits.accountFailures, limits.windowMs), retryAtOf(addressFailures, limits.addressFailures, limits.windowMs)]
  const latest = Math.max(...times.map(t => t?.getTime() ?? 0))
  return latest > now.getTime() ? new Date(latest) : null
}

/**
 * A password attempt about to be checked: refused (`retryAt`) while the account or the address is throttled, else
 * stored now as a failure (`attemptId`), which the check turns into a success if the password is right. Stored before
 * the check, because the check (argon2) takes tens of milliseconds: attempts sent together all passed the count before
 * any of them was stored, so a burst of guesses got past the limit. The count and the store are one transaction holding
 * the account's and the address's advisory locks (PostgreSQL: several web processes; the embedded database runs one
 * transaction at a time), so attempts sent together are counted one after another.
 */
export async function reserveSignInAttempt(email: string, clientAddress: string, now = new Date(), limits = signInLimits()): Promise<{ retryAt: Date } | { attemptId: string }> {
  const prisma = await getPrisma()
  const keys = [`sign-in account ${email}`, ...(clientAddress === UNKNOWN_ADDRESS ? [] : [`sign-in address ${clientAddress}`])].sort()
  return prisma.$transaction(async tx => {
    for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`
    const retryAt = await throttledUntil(email, clientAddress, now, limits, tx)
    if (retryAt) return { retryAt }
    const attempt = await tx.signInAttempt.create({ data: { email: email.slice(0, 320), clientAddress, succeeded: false, createdAt: now }, select: { id: true } })
    return { attemptId: attempt.id }
  })
}

/** The reserved attempt's password was right: a success, which clears the account's failures before it. */
export async function recordSignInSuccess(attemptId: string): Promise<void> {
  const prisma = await getPrisma()
  await prisma.signInAttempt.update({ where: { id: attemptId }, data: { succeeded: true } })
}

/** Attempts no window can count any more (kept a day at least); answers how many were removed. */
export async function pruneSignInAttempts(now = new Date(), limits = signInLimits()): Promise<number> {
  const prisma = await getPrisma()
  const keepMs = Math.max(limits.windowMs, 86_400_000)
  const { count } = await prisma.signInAttempt.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - keepMs) } } })
  return count
}
