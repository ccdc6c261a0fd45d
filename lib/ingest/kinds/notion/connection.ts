import { decryptSecret } from '@/lib/crypto/secrets'
import { getPrisma } from '@/lib/db/client'
import { permanentError } from '../../errors'
import type { NotionCall } from './api'

/**
 * The calls a notion datasource makes with its organization's connection: its token decrypted here, for this job
 * only (never stored elsewhere, never logged). Read here rather than through lib/connections, which validates tokens
 * with this folder's client (one direction between the two folders).
 */
export async function notionCallFor(organizationId: string, connectionId: string, signal?: AbortSignal): Promise<NotionCall> {
  const prisma = await getPrisma()
  const connection = await prisma.connection.findFirst({ where: { id: connectionId, organizationId, provider: 'notion' }, select: { id: true, secretCiphertext: true } })
  if (!connection) throw permanentError('The Notion connection of this datasource was deleted: add a connection and this content again')
  return { token: decryptSecret(connection.secretCiphertext), limiterKey: connection.id, signal }
}

/** Whether the organization has this Notion connection (checked before a datasource naming it is created). */
export async function hasNotionConnection(organizationId: string, connectionId: string): Promise<boolean> {
  const prisma = await getPrisma()
  return (await prisma.connection.count({ where: { id: connectionId, organizationId, provider: 'notion' } })) > 0
}
