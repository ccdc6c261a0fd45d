import { config } from '@/lib/config'
import type { Datastore } from '@/lib/generated/prisma/client'

export interface DatastoreResource {
  id: string
  name: string
  description: string | null
  visibility: 'public' | 'private'
  /** "hybrid" when an embeddings provider is configured, else "fulltext": search then uses words only. */
  searchMode: 'hybrid' | 'fulltext'
  createdAt: string
  updatedAt: string
}

export function searchMode(): DatastoreResource['searchMode'] {
  return config().OPENAI_API_KEY ? 'hybrid' : 'fulltext'
}

export function toDatastoreResource(store: Datastore): DatastoreResource {
  return {
    id: store.id,
    name: store.name,
    description: store.description,
    visibility: store.visibility,
    searchMode: searchMode(),
    createdAt: store.createdAt.toISOString(),
    updatedAt: store.updatedAt.toISOString(),
  }
}
