import { config } from '@/lib/config'
import type { DatastoreResource } from '@/lib/domain/datastores'
import { refreshInterval } from '@/lib/domain/refresh'
import type { Datastore } from '@/lib/generated/prisma/client'

export type { DatastoreResource } from '@/lib/domain/datastores'

export interface DatastoreCounts {
  nbDatasources: number
  nbSitePages: number
  nbChunks: number
}

export function searchMode(): DatastoreResource['searchMode'] {
  return config().OPENAI_API_KEY ? 'hybrid' : 'fulltext'
}

export function toDatastoreResource(store: Datastore, counts: DatastoreCounts = { nbDatasources: 0, nbSitePages: 0, nbChunks: 0 }): DatastoreResource {
  return {
    id: store.id,
    name: store.name,
    description: store.description,
    visibility: store.visibility,
    searchMode: searchMode(),
    chunkSize: store.chunkSize,
    chunkOverlap: store.chunkOverlap,
    refreshInterval: refreshInterval(store.refreshHours ?? 0)!,
    language: store.language as DatastoreResource['language'],
    nbDatasources: counts.nbDatasources,
    nbSitePages: counts.nbSitePages,
    nbChunks: counts.nbChunks,
    createdAt: store.createdAt.toISOString(),
    updatedAt: store.updatedAt.toISOString(),
  }
}
