import type { Datasource } from '@/lib/generated/prisma/client'

/** The spec's Datasource (§2) plus what a caller needs to follow its synchronisation. Times are ISO 8601 UTC. */
export interface DatasourceResource {
  id: string
  datastoreId: string
  type: 'file' | 'web_page' | 'web_site' | 'text'
  name: string
  status: 'unsynched' | 'pending' | 'running' | 'synched' | 'error' | 'usage_limit_reached'
  /** The web_site a discovered web_page belongs to, else null. */
  groupId: string | null
  /** file: {fileName, mimeType, size}; web_page: {source_url}; web_site: {sitemap} or {source_url}; text: {}. */
  config: Record<string, unknown>
  custom_id: string | null
  /** The upserted document's metadata (text datasources), else null. */
  metadata: Record<string, unknown> | null
  nbChunks: number
  nbTokens: number
  /** Characters of extracted text at the last synchronisation. */
  textSize: number
  /** The readable reason of an `error` or `usage_limit_reached` status, else null. */
  errorMessage: string | null
  lastSynch: string | null
  createdAt: string
  updatedAt: string
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

export function toDatasourceResource(ds: Datasource): DatasourceResource {
  return {
    id: ds.id,
    datastoreId: ds.datastoreId,
    type: ds.type,
    name: ds.name,
    status: ds.status,
    groupId: ds.groupId,
    config: asObject(ds.config) ?? {},
    custom_id: ds.customId,
    metadata: asObject(ds.metadata),
    nbChunks: ds.nbChunks,
    nbTokens: ds.nbTokens,
    textSize: ds.textSize,
    errorMessage: ds.errorMessage,
    lastSynch: ds.lastSynch?.toISOString() ?? null,
    createdAt: ds.createdAt.toISOString(),
    updatedAt: ds.updatedAt.toISOString(),
  }
}
