import { hashPassword } from '@/lib/auth/passwords'
import { authOptions } from '@/lib/auth/session'
import { getPrisma } from '@/lib/db/client'
import type { Role } from '@/lib/domain/access'

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
