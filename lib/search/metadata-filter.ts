import { z } from 'zod'
import type { MetadataValue, QueryFilters } from '@/lib/domain/datastores'

// `filters.metadata` (our extension of the spec's filters object): {key: value} or {key: [values]}, equality on the
// document's metadata (an upserted document's `metadata`, or a chunk's own such as a PDF's `page`), a document's
// value of the key winning over its chunk's. Every key must match; a list matches any of its values; a metadata value
// that is a list matches when it holds the value. Applied in SQL, inside the scope of both rankings, before ranking.

export const MAX_METADATA_KEYS = 20
export const MAX_METADATA_VALUES = 100

const Value = z.union([z.string().max(1000), z.number().finite(), z.boolean()])

export const MetadataFilterSchema = z
  .record(z.string().trim().min(1).max(128), z.union([Value, z.array(Value).min(1).max(MAX_METADATA_VALUES)]))
  .refine(m => Object.keys(m).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} metadata keys`)
  .describe(
    "Our extension of the spec's filters: document metadata key → a value or a list of values (any of them). Equality as JSON " +
      '(2 matches 2.0, "2" does not match 2; a metadata list matches when it holds the value); every key must match. ' +
      "Keys are an upserted document's metadata, else a chunk's own (a PDF's `page`). Applied before ranking.",
  )

/**
 * The SQL condition over `"Chunk" c` for the metadata filter, its parameters pushed onto `params` (whose $1 is the
 * organization and $2 the datastore ids). Values are compared as JSON (jsonb): 2 matches 2.0, "2" does not match 2.
 */
export function metadataClause(metadata: NonNullable<QueryFilters['metadata']>, params: unknown[]): string[] {
  return Object.entries(metadata).map(([key, value]) => {
    const values = (Array.isArray(value) ? value : [value]).map((v: MetadataValue) => JSON.stringify(v))
    params.push(key)
    const k = params.length
    params.push(values)
    const v = params.length
    const matches = (doc: string) =>
      `EXISTS (SELECT 1 FROM unnest($${v}::text[]) x WHERE ${doc} -> $${k}::text = x::jsonb OR (jsonb_typeof(${doc} -> $${k}::text) = 'array' AND ${doc} -> $${k}::text @> jsonb_build_array(x::jsonb)))`
    const documents = `SELECT d.id FROM "Datasource" d WHERE d."datastoreId" = ANY($2::text[])`
    return (
      `(c."datasourceId" IN (${documents} AND ${matches('d.metadata')})` +
      ` OR (${matches('c.metadata')} AND c."datasourceId" NOT IN (${documents} AND jsonb_typeof(d.metadata) = 'object' AND jsonb_exists(d.metadata, $${k}::text))))`
    )
  })
}
