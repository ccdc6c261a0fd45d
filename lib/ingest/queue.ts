import type { PrismaClient } from '@/lib/generated/prisma/client'

/**
 * Puts a datasource in the sync queue: `pending`, due now, no lease, no attempts yet, no error. The worker claims rows
 * in exactly this state (lib/ingest/claim.ts). A web_site re-queued this way rediscovers its pages.
 */
export async function queueDatasource(prisma: PrismaClient, datasourceId: string): Promise<void> {
  await prisma.datasource.update({
    where: { id: datasourceId },
    data: { status: 'pending', nextRunAt: new Date(), leaseOwner: null, leaseExpiresAt: null, attempts: 0, errorMessage: null },
  })
}
