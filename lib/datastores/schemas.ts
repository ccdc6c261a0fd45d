// The request shapes of the datastore and datasource endpoints, validated at the edge (unknown fields are ignored).
import { z } from 'zod'

import { DATASOURCE_STATUSES, DATASOURCE_TYPES, type DatasourceType } from '@/lib/domain/datasources'
import { jsonCreatedKinds } from '@/lib/ingest/kinds'
import { CHUNK_OVERLAP_RANGE, CHUNK_SIZE_RANGE, MAX_QUERY_LENGTH, MAX_TOP_K } from '@/lib/domain/limits'
import { MAX_UPSERT_DOCUMENTS } from '@/lib/domain/limits'
import { MAX_REFRESH_HOURS, REFRESH_NAMES } from '@/lib/domain/refresh'
import { IdParam } from '@/lib/http/body'
import { PayloadTooLarge } from '@/lib/http/errors'
import { SEARCH_LANGUAGES } from '@/lib/domain/languages'
import { MetadataFilterSchema } from '@/lib/search/metadata-filter'

export { MAX_QUERY_LENGTH, MAX_TOP_K, MAX_UPSERT_DOCUMENTS } from '@/lib/domain/limits'

const Id = IdParam
const Name = z.string().trim().min(1, 'must not be empty').max(200)
const Description = z.string().max(5000).nullable()
const CustomId = z.string().trim().min(1).max(256)

const Chunking = {
  chunkSize: z.number().int().min(CHUNK_SIZE_RANGE.min).max(CHUNK_SIZE_RANGE.max).optional(),
  chunkOverlap: z.number().int().min(CHUNK_OVERLAP_RANGE.min).max(CHUNK_OVERLAP_RANGE.max).optional(),
}

/** How often a web source is fetched again: "off", "hourly", "daily", "weekly", or a number of hours. */
export const RefreshIntervalSchema = z.union([z.enum(REFRESH_NAMES), z.number().int().min(1).max(MAX_REFRESH_HOURS)])

export const DatastoreCreateBody = z.object({
  name: Name,
  description: Description.optional(),
  visibility: z.enum(['public', 'private']).optional(),
  ...Chunking,
  refreshInterval: RefreshIntervalSchema.optional(),
  language: z.enum(SEARCH_LANGUAGES).optional(),
})

export const DatastorePatchBody = z.object({
  name: Name.optional(),
  description: Description.optional(),
  visibility: z.enum(['public', 'private']).optional(),
  ...Chunking,
  refreshInterval: RefreshIntervalSchema.optional(),
  /** A new language indexes the datastore's chunks again, in the request. */
  language: z.enum(SEARCH_LANGUAGES).optional(),
})

/** PATCH /api/datasources/{id}: a web source's refresh interval (null: its datastore's) and a web site's crawl rules. */
export const DatasourcePatchBody = z.object({
  name: Name.optional(),
  refreshInterval: RefreshIntervalSchema.nullable().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
})
export type DatasourcePatchBody = z.infer<typeof DatasourcePatchBody>


/** "a,b" or "a": each value one of `values`. */
function commaList<T extends string>(values: readonly T[]) {
  return z
    .string()
    .transform(s => s.split(',').map(v => v.trim()).filter(Boolean))
    .pipe(z.array(z.enum(values as unknown as [T, ...T[]])))
}

export const DatasourceListParams = z.object({
  status: commaList(DATASOURCE_STATUSES).optional(),
  type: commaList(DATASOURCE_TYPES).optional(),
  groupId: Id.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
})

const Metadata = z.record(z.string(), z.unknown()).nullable()

export const UpsertDocument = z.object({
  text: z.string().refine(t => t.trim().length > 0, 'must not be empty'),
  name: z.string().max(500).nullable().optional(),
  metadata: Metadata.optional(),
  /** An existing datasource of this datastore whose content the document replaces. */
  id: Id.optional(),
})
export type UpsertDocument = z.infer<typeof UpsertDocument>

/** Too many documents is a 413 (split the upsert), whatever the documents hold; none is a 400. */
function refuseTooMany(documents: unknown[]): boolean {
  if (!Array.isArray(documents) || documents.length <= MAX_UPSERT_DOCUMENTS) return true
  throw new PayloadTooLarge(`At most ${MAX_UPSERT_DOCUMENTS} documents per upsert; this one has ${documents.length}: split it`, {
    maxDocuments: MAX_UPSERT_DOCUMENTS,
    received: documents.length,
  })
}

export const UpsertBody = z.object({
  documents: z
    .array(UpsertDocument)
    .min(1, 'documents must hold at least one document')
    .refine(refuseTooMany, { when: () => true }),
})

const JsonCommon = {
  datastoreId: Id,
  name: z.string().trim().max(200).optional(),
  custom_id: CustomId.optional(),
  refreshInterval: RefreshIntervalSchema.nullable().optional(),
}

/** The JSON form of POST /api/datasources (§4.5): one member per kind its module says is created with JSON. */
export function jsonDatasourceBodySchema() {
  const kinds = jsonCreatedKinds()
  const members = kinds.map(({ type, json }) => z.object({ ...JsonCommon, type: z.literal(type), config: json.configSchema }))
  const types = kinds.map(k => `"${k.type}"`).join(' or ')
  return z.discriminatedUnion('type', members as unknown as [(typeof members)[number], ...(typeof members)[number][]], {
    error: `type must be ${types} in a JSON body; upload files as multipart/form-data with type "file"`,
  })
}
export const JsonDatasourceBody = jsonDatasourceBodySchema()
export interface JsonDatasourceBody {
  datastoreId: string
  name?: string
  custom_id?: string
  refreshInterval?: z.infer<typeof RefreshIntervalSchema> | null
  type: DatasourceType
  config: unknown
}

/** A value that may be absent, given as null (Chaindesk's clients send null for "no filter"). */
const absentWhenNull = <T extends z.ZodType>(schema: T) => z.preprocess(v => (v === null ? undefined : v), schema.optional())

/** The filters of a datastore query and of an agent query (spec §4.2, §4.7), applied inside the SQL. */
export const QueryFiltersSchema = z.object({
  custom_ids: absentWhenNull(z.array(z.string().max(256)).max(1000)),
  datasource_ids: absentWhenNull(z.array(IdParam).max(1000)),
  /** Our extension (lib/search/metadata-filter.ts): equality on document metadata keys. */
  metadata: absentWhenNull(MetadataFilterSchema),
})

/** The relevance floor: fragments scoring below it are left out (README "Scores"). */
export const MinScore = z
  .number()
  .min(0)
  .max(1)
  .describe("Relevance floor: fragments whose score is below it are left out (README \"Scores\": the reranker's score, else calibrated BM25 and cosine).")

export const DatastoreQueryBody = z.object({
  query: z
    .string()
    .max(MAX_QUERY_LENGTH)
    .refine(q => q.trim().length > 0, 'must not be empty'),
  topK: z.number().int().min(1).max(MAX_TOP_K).default(5),
  filters: QueryFiltersSchema.nullable().optional(),
  minScore: MinScore.nullable().optional(),
})
export type DatastoreQueryBody = z.infer<typeof DatastoreQueryBody>
