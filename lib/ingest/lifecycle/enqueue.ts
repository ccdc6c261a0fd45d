import { getDatabase } from '@/lib/db/client'
import type { Datasource, Prisma } from '@/lib/generated/prisma/client'
import { NOW_UTC } from './clock'

/** A datasource as its creator describes it; the lifecycle fields (status, due time, lease) are this module's. */
export type NewDatasource = Omit<
  Prisma.DatasourceCreateManyInput,
  'status' | 'nextRunAt' | 'leaseOwner' | 'leaseExpiresAt' | 'attempts' | 'errorMessage' | 'lastSynch' | 'contentHash'
>

const QUEUED = { status: 'pending' } as const

/** Creates a datasource in the queue: `pending`, due now by the database's clock (the column's default). */
export async function createQueuedDatasource(data: NewDatasource): Promise<Datasource> {
  const { prisma } = await getDatabase()
  return prisma.datasource.create({ data: { ...data, ...QUEUED } })
}

/** createQueuedDatasource for many, in one statement. */
export async function createQueuedDatasources(data: NewDatasource[]): Promise<void> {
  if (data.length === 0) return
  const { prisma } = await getDatabase()
  await prisma.datasource.createMany({ data: data.map(d => ({ ...d, ...QUEUED })) })
}

/**
 * Puts existing datasources back in the queue: `pending`, due now, no lease, no attempts yet, no error; a lease held
 * on them is void (its worker writes nothing). A web site queued again rediscovers its pages.
 */
export async function enqueueDatasources(ids: string[]): Promise<void> {
  if (ids.length === 0) return
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "Datasource" SET status = 'pending', "nextRunAt" = ${NOW_UTC}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
            attempts = 0, "errorMessage" = NULL, "updatedAt" = ${NOW_UTC}
      WHERE id = ANY($1::text[])`,
    [ids],
  )
}
