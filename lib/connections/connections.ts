import { encryptSecret } from '@/lib/crypto/secrets'
import { getPrisma } from '@/lib/db/client'
import type { ConnectionCreateBody, ConnectionPatchBody, ConnectionProvider, ConnectionResource } from '@/lib/domain/connections'
import type { TenantContext } from '@/lib/domain/tenant'
import type { Connection } from '@/lib/generated/prisma/client'
import { NotFound } from '@/lib/http/errors'
import { checkToken } from './providers'

// An organization's connections to other services (README "Notion"): the token is checked with the provider when
// saved, stored encrypted (lib/crypto/secrets.ts) and never answered; its first characters let a user recognise it.

function toResource(c: Connection): ConnectionResource {
  return {
    id: c.id,
    provider: c.provider as ConnectionProvider,
    name: c.name,
    secretPrefix: c.secretPrefix,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }
}

/** What is stored of a token: encrypted, and the characters that show which one it is (its kind, not its secret part). */
function storedSecret(token: string) {
  return { secretCiphertext: encryptSecret(token), secretPrefix: `${token.slice(0, Math.min(8, Math.floor(token.length / 4)))}…` }
}

async function findConnection(ctx: TenantContext, id: string): Promise<Connection> {
  const prisma = await getPrisma()
  const connection = await prisma.connection.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!connection) throw new NotFound('Connection')
  return connection
}

export async function listConnections(ctx: TenantContext): Promise<ConnectionResource[]> {
  const prisma = await getPrisma()
  const rows = await prisma.connection.findMany({ where: { organizationId: ctx.organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })
  return rows.map(toResource)
}

export async function getConnection(ctx: TenantContext, id: string): Promise<ConnectionResource> {
  return toResource(await findConnection(ctx, id))
}

/** A new connection, once the provider accepted its token (a clear 400 otherwise). */
export async function createConnection(ctx: TenantContext, body: ConnectionCreateBody): Promise<ConnectionResource> {
  await checkToken(body.provider, body.token)
  const prisma = await getPrisma()
  const row = await prisma.connection.create({ data: { organizationId: ctx.organizationId, provider: body.provider, name: body.name, ...storedSecret(body.token) } })
  return toResource(row)
}

/** A new name, or a new token (checked like the first: a revoked token is replaced without recreating the content). */
export async function updateConnection(ctx: TenantContext, id: string, patch: ConnectionPatchBody): Promise<ConnectionResource> {
  const connection = await findConnection(ctx, id)
  if (patch.token) await checkToken(connection.provider as ConnectionProvider, patch.token)
  const prisma = await getPrisma()
  const updated = await prisma.connection.update({
    where: { id: connection.id, organizationId: ctx.organizationId },
    data: { name: patch.name, ...(patch.token ? storedSecret(patch.token) : {}) },
  })
  return toResource(updated)
}

/** Removes the connection: the datasources naming it keep their content and fail at their next sync, saying why. */
export async function deleteConnection(ctx: TenantContext, id: string): Promise<ConnectionResource> {
  const connection = await findConnection(ctx, id)
  const prisma = await getPrisma()
  await prisma.connection.delete({ where: { id: connection.id, organizationId: ctx.organizationId } })
  return toResource(connection)
}
