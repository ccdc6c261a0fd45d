import { DATASOURCE_STATUSES } from '@/lib/domain/datasources'
import { metadataClause } from './metadata-filter'
import type { HybridSearchInput, QueryFilters } from './types'

/**
 * SQL: whether searches skip the chunks of datasource `d`: those of one unsynched or in error, and
 * those of a datasource never synched until it is (a first synchronisation's chunks as they are written in steps, or
 * left by one interrupted: lib/ingest/lifecycle/write-steps.ts).
 */
export const contentHidden = (d: string) =>
  // the statuses listed first, so that the index on status finds the few datasources not synched (a condition on
  // "lastSynch" alone read every datasource of the datastore for each statement of a question: 1.5 -> 2.8 ms a
  // vector ranking at 1,000 documents)
  `(${d}.status IN (${UNSYNCHED}) AND (${d}.status IN ('unsynched', 'error') OR ${d}."lastSynch" IS NULL))`

const UNSYNCHED = DATASOURCE_STATUSES.filter(s => s !== 'synched').map(s => `'${s}'`).join(', ')

/** A WHERE clause over `"Chunk" c` and its parameters ($1, $2… in order); more parameters follow them. */
export interface Scope {
  clause: string
  params: unknown[]
  /** Without filters: the organization and datastores alone, for a ranking kept in memory (bm25-memory.ts). */
  unfiltered?: { organizationId: string; datastoreIds: string[] }
}

/**
 * What both rankings search: the organization's chunks in the given datastores, of datasources whose content is
 * visible (synched, or being re-synched, or kept at the usage limit, once synched) and of the generation searches see
 * (a large re-synchronisation's new chunks appear all at once: lib/ingest/lifecycle/write-generations.ts),
 * restricted by the filters, before ranking.
 */
export function scopeOf(input: Pick<HybridSearchInput, 'organizationId' | 'datastoreIds' | 'filters'>, options: { datastoreIndex?: boolean } = {}): Scope {
  const params: unknown[] = [input.organizationId, input.datastoreIds]
  const parts = [
    `c."organizationId" = $1`,
    // datastoreIndex false: written so that no index can serve it, for statements that must be driven by another
    options.datastoreIndex === false ? `(c."datastoreId" || '') = ANY($2::text[])` : `c."datastoreId" = ANY($2::text[])`,
    `c."datasourceId" NOT IN (SELECT d.id FROM "Datasource" d WHERE d."datastoreId" = ANY($2::text[]) AND ${contentHidden('d')})`,
    // a re-synchronisation in steps: its new generation while written, then the old one while deleted
    `(c."datasourceId", c.generation) NOT IN (SELECT d.id, d."hiddenGeneration" FROM "Datasource" d WHERE d."datastoreId" = ANY($2::text[]) AND d."hiddenGeneration" IS NOT NULL)`,
  ]
  const filters: QueryFilters = input.filters ?? {}
  if (filters.datasource_ids) {
    params.push(filters.datasource_ids)
    parts.push(`c."datasourceId" = ANY($${params.length}::text[])`)
  }
  if (filters.custom_ids) {
    // the datasource's custom_id (current even when its chunks were not rewritten), else the chunk's own
    params.push(filters.custom_ids)
    const n = params.length
    parts.push(
      `(c."datasourceId" IN (SELECT d.id FROM "Datasource" d WHERE d."datastoreId" = ANY($2::text[]) AND d."custom_id" = ANY($${n}::text[]))` +
        ` OR c."custom_id" = ANY($${n}::text[]))`,
    )
  }
  if (filters.metadata && Object.keys(filters.metadata).length > 0) parts.push(...metadataClause(filters.metadata, params))
  const unfiltered = parts.length === 4 ? { organizationId: input.organizationId, datastoreIds: input.datastoreIds } : undefined
  return { clause: parts.join(' AND '), params, unfiltered }
}
