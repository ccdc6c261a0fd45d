import { getPrisma } from '@/lib/db/client'
import { hashPassword, verifyPassword } from './passwords'

// Issue 22: a dashboard session is a signed cookie (a JWT, 30 days), which nothing on the server could take back.
// Each user has a session version, copied into the cookie at sign-in and compared on every request: signing out
// and changing the password bump it, which ends every session of that user (all of its browsers) at once.

/** The claim of the session cookie that holds the version it was minted under. */
export const SESSION_VERSION_CLAIM = 'sv'

/** The user's current session version, or null when the user no longer exists. */
export async function currentSessionVersion(userId: string): Promise<number | null> {
  const prisma = await getPrisma()
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } })
  return user?.sessionVersion ?? null
}

/** True while the cookie's version is the user's current one (a cookie from before this check existed has none). */
export async function isSessionCurrent(userId: string, version: unknown): Promise<boolean> {
  const current = await currentSessionVersion(userId)
  return current !== null && (version ?? 0) === current
}

/** Ends every session of the user minted before now (sign-out). Only a cookie of the current version may do it. */
export async function endSessions(userId: string, version?: unknown): Promise<void> {
  const prisma = await getPrisma()
  await prisma.user.updateMany({ where: { id: userId, ...(version === undefined ? {} : { sessionVersion: Number(version) || 0 }) }, data: { sessionVersion: { increment: 1 } } })
}

/** Sets a new password (8 characters or more) and ends every session of the user. */
export async function changePassword(userId: string, newPassword: string): Promise<void> {
  if (newPassword.length < 8) throw new Error('The password must be at least 8 characters')
  const prisma = await getPrisma()
  await prisma.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(newPassword), sessionVersion: { increment: 1 } } })
}

let dummyHash: Promise<string> | undefined

/**
 * Checks an email and password in the same time whether or not the account exists: for an unknown email a password
 * is verified against a throw-away hash, so response times do not tell known accounts from unknown ones.
 */
export async function checkCredentials(email: string, password: string) {
  const prisma = await getPrisma()
  const user = await prisma.user.findUnique({ where: { email } })
  if (!user) {
    dummyHash ??= hashPassword(`no account ${Math.random()}`)
    await verifyPassword(await dummyHash, password)
    return null
  }
  return (await verifyPassword(user.passwordHash, password)) ? user : null
}
