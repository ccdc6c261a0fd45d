import { config } from '@/lib/config'
import type { Datastore } from '@/lib/generated/prisma/client'

export interface DatastoreResource {
  id: string
  name: string
  description: string | null
  visibility: 'public' | 'private'
  /** "hybrid" when an embeddings provider is configured, else "fulltext": search then uses words only. */
  searchMode: 'hybrid' | 'fulltext'
  /** Chunking of this datastore's content, in tokens (applies to datasources synched after a change). */
  chunkSize: number
  chunkOverlap: number
  /** Every datasource of the datastore, pages of a web site included. */
  nbDatasources: number
  nbChunks: number
  createdAt: string
  updatedAt: string
}

export interface DatastoreCounts {
  nbDatasources: number
  nbChunks: number
}

export function searchMode(): DatastoreResource['searchMode'] {
  return config().OPENAI_API_KEY ? 'hybrid' : 'fulltext'
}

export function toDatastoreResource(store: Datastore, counts: DatastoreCounts = { nbDatasources: 0, nbChunks: 0 }): DatastoreResource {
  return {
    id: store.id,
    name: store.name,
    description: store.description,
    visibility: store.visibility,
    searchMode: searchMode(),
    chunkSize: store.chunkSize,
    chunkOverlap: store.chunkOverlap,
    nbDatasources: counts.nbDatasources,
    nbChunks: counts.nbChunks,
    createdAt: store.createdAt.toISOString(),
    updatedAt: store.updatedAt.toISOString(),
  }
}
