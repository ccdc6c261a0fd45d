import { getPrisma } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import type { OcrRequest } from '../loaders'

/**
 * What the loaders need to recognise text for a claimed job: its datastore's language (read only if some page needs
 * it), the job's abort signal, and its progress (pages done of total) recorded on the datasource while it holds
 * the lease, for the dashboard to show.
 */
export function ocrRequestFor(job: Datasource, signal?: AbortSignal): OcrRequest {
  return {
    signal,
    async language() {
      const store = await (await getPrisma()).datastore.findUnique({ where: { id: job.datastoreId }, select: { language: true } })
      return store?.language ?? 'english'
    },
    async onProgress(done, total) {
      const prisma = await getPrisma()
      await prisma.datasource.updateMany({ where: { id: job.id, leaseOwner: job.leaseOwner }, data: { ocrPagesDone: done, ocrPagesTotal: total } })
    },
  }
}
