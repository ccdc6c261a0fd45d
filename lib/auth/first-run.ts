import { randomBytes } from 'node:crypto'
import { config } from '@/lib/config'
import { LOCKS, withAdvisoryLock } from '@/lib/db/advisory-lock'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { createApiKey, isAcceptableSecret } from './api-keys'
import { hashPassword } from './passwords'

export interface FirstRunCredentials {
  email: string
  password: string
  apiKey: string
  generated: { password: boolean; apiKey: boolean }
}

/**
 * On an empty database, creates the first organization, its admin and an API key, from INIT_ADMIN_EMAIL,
 * INIT_ADMIN_PASSWORD and INIT_API_KEY when set, generated otherwise. Returns what it created, or null when the
 * database already has a user (nothing is created twice).
 */
export async function ensureFirstAdmin(): Promise<FirstRunCredentials | null> {
  // web processes starting together on an empty Postgres: one creates, the others then see its user
  return withAdvisoryLock(await getDatabase(), LOCKS.firstAdmin, createFirstAdmin)
}

async function createFirstAdmin(): Promise<FirstRunCredentials | null> {
  const prisma = await getPrisma()
  if ((await prisma.user.count()) > 0) return null
  const env = config()
  const email = (env.INIT_ADMIN_EMAIL ?? 'admin@example.com').trim().toLowerCase()
  const password = env.INIT_ADMIN_PASSWORD ?? randomBytes(12).toString('base64url')
  if (env.INIT_API_KEY && !isAcceptableSecret(env.INIT_API_KEY)) {
    throw new Error('INIT_API_KEY must be 20 to 200 printable characters without spaces')
  }
  if (password.length < 8) throw new Error('INIT_ADMIN_PASSWORD must be at least 8 characters')
  const passwordHash = await hashPassword(password)
  const organization = await prisma.organization.create({
    data: {
      name: 'My organization',
      memberships: { create: { role: 'owner', user: { create: { email, name: 'Admin', passwordHash } } } },
    },
    include: { memberships: true },
  })
  const ctx = { organizationId: organization.id, actor: { type: 'user' as const, userId: organization.memberships[0].userId } }
  const { secret } = await createApiKey(ctx, 'Initial key', env.INIT_API_KEY)
  return { email, password, apiKey: secret, generated: { password: !env.INIT_ADMIN_PASSWORD, apiKey: !env.INIT_API_KEY } }
}

/** The one time the generated secrets are shown. */
export function printFirstRunBanner(created: FirstRunCredentials, port: number): void {
  const line = '='.repeat(72)
  const shown = (value: string, generated: boolean) => (generated ? value : `${value.slice(0, 4)}… (from the environment)`)
  console.log(
    [
      '',
      line,
      '  First run: created an organization, its admin and an API key.',
      generated(created) ? '  Save these now: the generated secrets are not shown again.' : '',
      '',
      `  Dashboard   http://localhost:${port}`,
      `  Email       ${created.email}`,
      `  Password    ${shown(created.password, created.generated.password)}`,
      `  API key     ${shown(created.apiKey, created.generated.apiKey)}`,
      '',
      `  Try it:     curl -H "Authorization: Bearer <API key>" http://localhost:${port}/api/datastores`,
      line,
      '',
    ].join('\n'),
  )
}

function generated(created: FirstRunCredentials) {
  return created.generated.password || created.generated.apiKey
}
