// `npm run keys -- create --name NAME | list | revoke ID [--org ORG_ID]`: manage API keys from a shell.
// With the embedded database the service must be stopped first (one process per DATA_DIR).
import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/auth/api-keys'
import type { TenantContext } from '@/lib/domain/tenant'
import { getDatabase } from '@/lib/db/client'

function usage(): never {
  console.error('Usage:\n  npm run keys -- create --name NAME [--org ORG_ID]\n  npm run keys -- list [--org ORG_ID]\n  npm run keys -- revoke ID [--org ORG_ID]')
  process.exit(2)
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

async function main() {
  const [command, ...args] = process.argv.slice(2)
  if (!command) usage()
  const db = await getDatabase()
  const orgs = await db.prisma.organization.findMany({ orderBy: { createdAt: 'asc' } })
  const orgId = option(args, '--org') ?? orgs[0]?.id
  if (!orgId || !orgs.some(o => o.id === orgId)) {
    console.error(orgs.length ? `No organization ${orgId}. Organizations: ${orgs.map(o => `${o.id} (${o.name})`).join(', ')}` : 'No organization yet: run `npm start` once first.')
    process.exit(1)
  }
  const ctx: TenantContext = { organizationId: orgId, actor: { type: 'user', userId: 'cli' } }
  if (command === 'create') {
    const name = option(args, '--name')
    if (!name) usage()
    const { apiKey, secret } = await createApiKey(ctx, name)
    console.log(`Created API key ${apiKey.id} "${apiKey.name}". The secret is shown this once:\n\n  ${secret}\n`)
  } else if (command === 'list') {
    const keys = await listApiKeys(ctx, { includeRevoked: true })
    if (!keys.length) console.log('No API keys.')
    for (const k of keys) {
      console.log(`${k.id}  ${k.prefix}…  ${k.name.padEnd(24)}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''}`)
    }
  } else if (command === 'revoke') {
    const id = args[0]
    if (!id || id.startsWith('--')) usage()
    const key = await revokeApiKey(ctx, id).catch(() => null)
    if (!key) {
      console.error(`No API key ${id} in this organization.`)
      process.exit(1)
    }
    console.log(`Revoked ${key.id} "${key.name}".`)
  } else usage()
  await db.close()
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
