// The datastore resources as the API answers them (spec §2, §4.5-4.7), as zod schemas (the responses of their
// endpoints and the OpenAPI document's components) with their TypeScript types inferred. Times are ISO 8601 UTC.
import { z } from 'zod'
import { DATASOURCE_STATUSES, DATASOURCE_TYPES } from './datasources'
import { SEARCH_LANGUAGES } from './languages'
import { REFRESH_NAMES } from './refresh'

const time = z.iso.datetime()
const Json = z.record(z.string(), z.unknown())
/** "off", "hourly", "daily", "weekly" or a number of hours. */
const RefreshIntervalValue = z.union([z.enum(REFRESH_NAMES), z.number()])

export const DatastoreResource = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    visibility: z.enum(['public', 'private']),
    searchMode: z.enum(['hybrid', 'fulltext']).describe('"hybrid" when an embeddings provider is configured, else "fulltext": search then uses words only'),
    chunkSize: z.number().int().describe('Chunking of its content, in tokens (applies to datasources synched after a change)'),
    chunkOverlap: z.number().int(),
    refreshInterval: RefreshIntervalValue.describe('The refresh interval of its web sources that set none'),
    language: z.enum(SEARCH_LANGUAGES).describe('Text search language of its chunks and of the questions asked of it'),
    nbDatasources: z.number().int().describe('Every datasource of the datastore, pages of a web site included'),
    nbSitePages: z.number().int().describe('How many of them are pages of a web site (listed under their site, not beside it)'),
    nbChunks: z.number().int(),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'Datastore' })
export type DatastoreResource = z.infer<typeof DatastoreResource>

/** The spec's Datasource (§2) plus what a caller needs to follow its synchronisation. */
export const DatasourceResource = z
  .strictObject({
    id: z.string(),
    datastoreId: z.string(),
    type: z.enum(DATASOURCE_TYPES),
    name: z.string(),
    status: z.enum(DATASOURCE_STATUSES),
    groupId: z.string().nullable().describe('The web_site a discovered web_page belongs to, else null'),
    config: Json.describe("The public part of the kind's config: file {fileName, mimeType, size}; web_page {source_url}; web_site {sitemap} or {source_url} and crawl rules; text {}. Secrets never appear here"),
    custom_id: z.string().nullable(),
    metadata: Json.nullable().describe("The upserted document's metadata (text datasources), else null"),
    nbChunks: z.number().int(),
    nbTokens: z.number().int(),
    textSize: z.number().int().describe('Characters of extracted text at the last synchronisation'),
    nbChildren: z.number().int().optional().describe("A web site's number of pages; its nbChunks and nbTokens are then their sums"),
    errorMessage: z.string().nullable().describe('The readable reason of an `error` or `usage_limit_reached` status'),
    ocrPages: z
      .strictObject({ done: z.number().int(), total: z.number().int() })
      .nullable()
      .describe('Text recognition (OCR) of scanned pages or an image at the last synchronisation: pages read of those that needed it; null when none did'),
    lastSynch: time.nullable(),
    refreshInterval: RefreshIntervalValue.nullable().describe("Its own refresh interval (web sources), or null: its datastore's"),
    nextRefreshAt: time.nullable().describe('When it is next fetched on its schedule, or null'),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'Datasource' })
export type DatasourceResource = z.infer<typeof DatasourceResource>

/** A created file datasource; `duplicate: true` (status 200) when a datasource of the datastore held the same content. */
export const CreatedDatasource = DatasourceResource.extend({ duplicate: z.literal(true).optional() })

export const DatasourcePage = z.strictObject({
  items: z.array(DatasourceResource),
  nextCursor: z.string().nullable().describe('Pass as `cursor` to get the next page; null on the last page'),
  total: z.number().int().describe('How many datasources match the filters, over all pages'),
})
export type DatasourcePage = z.infer<typeof DatasourcePage>

/** A value a metadata filter compares with (JSON equality). */
export type MetadataValue = string | number | boolean

export interface QueryFilters {
  custom_ids?: string[]
  datasource_ids?: string[]
  /** Our extension: document metadata key → a value or any of a list of values (equality; an array value contains it). */
  metadata?: Record<string, MetadataValue | MetadataValue[]>
}

/** One ranked piece of stored content, as the spec's "datastore query result fragment" plus custom_id and metadata. */
export const Fragment = z
  .strictObject({
    text: z.string(),
    score: z.number().describe("Relevance in [0, 1], comparable across queries: the reranker's, else normalised BM25 (and cosine similarity with embeddings); README: Scores"),
    source: z.string().describe("The page URL, else the document's metadata.source, else the datasource's name"),
    datasource_id: z.string(),
    datasource_name: z.string(),
    custom_id: z.string().nullable(),
    metadata: Json,
  })
  .meta({ id: 'Fragment' })
export type Fragment = z.infer<typeof Fragment>

/** Databerry's datastore query, as LangChain's retrievers read it. */
export const DataberryResults = z.strictObject({ results: z.array(Fragment) })

/** A chunk as a datasource's view lists it (GET /api/datasources/{id}/chunks). */
export const ChunkView = z.strictObject({
  id: z.string(),
  position: z.number().int(),
  text: z.string(),
  tokens: z.number().int(),
  metadata: Json.describe('Where the chunk comes from: page, sheet, slide, title… as the loader recorded it'),
})
export type ChunkView = z.infer<typeof ChunkView>

export const ChunkPage = z.strictObject({
  items: z.array(ChunkView),
  nextAfter: z.number().int().nullable().describe('The position to pass as `after` for the next page; null on the last page'),
  total: z.number().int(),
})
export type ChunkPage = z.infer<typeof ChunkPage>

/** GET /api/datasources/{id}/text: the stored original's text in sections (pages, slides, sheets…); null without one (web pages). */
export const ExtractedText = z.strictObject({
  sections: z.array(z.strictObject({ text: z.string(), metadata: Json })).nullable(),
  truncated: z.boolean(),
})
export type ExtractedText = z.infer<typeof ExtractedText>

/** The answer of an upsert: ids in document order; the documents whose text the datastore already held (not indexed again). */
export const UpsertResult = z.strictObject({
  ids: z.array(z.string()),
  duplicates: z.array(z.strictObject({ index: z.number().int(), datasourceId: z.string(), name: z.string() })).optional(),
})
export type UpsertResult = z.infer<typeof UpsertResult>

export const BULK_ACTIONS = ['synch', 'delete'] as const
/** What a bulk action did: the datasources acted on (ids of another datastore or tenant are left out, as if unknown). */
export const BulkOutcome = z.strictObject({ action: z.enum(BULK_ACTIONS), ids: z.array(z.string()) })
export type BulkOutcome = z.infer<typeof BulkOutcome>
