import { recordAudit } from '@/lib/audit/record'
import { getPrisma } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { checkCredentials } from './session-version'
import { recordSignInSuccess, reserveSignInAttempt, SignInThrottled } from './sign-in-throttle'

// A password sign-in (the dashboard's credentials provider): throttled, checked, counted and audited (issue 24).

export type SignInAction = 'auth.sign_in' | 'auth.sign_in_failed' | 'auth.sign_in_throttled'

/**
 * Writes the sign-in's audit entry into every organization the account belongs to, with the email as the target's
 * name. An email no account has belongs to no organization: it is logged, not audited.
 */
export async function auditSignIn(action: SignInAction, email: string, clientAddress: string, method = 'password'): Promise<void> {
  const prisma = await getPrisma()
  const user = await prisma.user.findUnique({ where: { email }, select: { id: true, memberships: { select: { organizationId: true } } } })
  if (!user) {
    logger.info('sign-in by an unknown account', { action, clientAddress, method })
    return
  }
  for (const { organizationId } of user.memberships) {
    const ctx = { organizationId, actor: { type: 'user' as const, userId: user.id } }
    await recordAudit(ctx, { action, target: { type: 'user', id: user.id, name: email }, clientAddress })
  }
}

/**
 * The user an email and password sign in, or null for a wrong pair. Throws SignInThrottled while the account or the
 * address is refused: then the password is not even checked, and the attempt does not push the window on.
 */
export async function signInWithPassword(email: string, password: string, clientAddress: string, now = new Date()) {
  const attempt = await reserveSignInAttempt(email, clientAddress, now)
  if ('retryAt' in attempt) {
    await auditSignIn('auth.sign_in_throttled', email, clientAddress)
    throw new SignInThrottled(attempt.retryAt)
  }
  const user = await checkCredentials(email, password)
  if (user) await recordSignInSuccess(attempt.attemptId)
  await auditSignIn(user ? 'auth.sign_in' : 'auth.sign_in_failed', email, clientAddress)
  return user
}
