import type { z } from 'zod'
import type { DatasourceStatus, DatasourceType } from '@/lib/domain/datasources'
import type { StoredBlob } from '@/lib/db/blob-store'
import type { Datasource } from '@/lib/generated/prisma/client'
import type { Section } from '../sections'
import type { HttpValidators } from '../web/fetcher'

/** What a claimed job runs under. */
export interface JobContext {
  workerId: string
  leaseMs: number
  /** Aborted when the lease is lost or the worker stops. */
  signal: AbortSignal
}

export type StoredConfig = Record<string, unknown>

/** What a datasource looks like to the code that shows it (the API's resource, a fragment's source). */
export interface DatasourceView {
  name: string
  config: StoredConfig
  metadata: Record<string, unknown>
}

/** A kind created by `POST /api/datasources` with a JSON body whose `config` this schema validates. */
export interface JsonCreation<Config> {
  configSchema: z.ZodType<Config>
  /** The config as stored (may hold what publicConfig hides). */
  storedConfig(config: Config): StoredConfig
  /** A name when the body gives none. */
  defaultName(config: Config): string
  /** What the config names that the organization lacks (a connection of another organization: a 404), else null. */
  missing?(organizationId: string, config: Config): Promise<string | null>
}

interface KindBase<T extends DatasourceType> {
  type: T
  /** Fetched from elsewhere, so worth fetching again on a schedule (README "Schedules and webhooks"). */
  refreshable?: boolean
  /** The part of its config a user may change after creation (a site's crawl rules), applied to the next synchronisation. */
  editableConfig?: { schema: z.ZodType; apply(config: StoredConfig, patch: any): StoredConfig }
  /** How clients create it: a JSON body (`json`), a multipart file upload, documents upserted as text, or only by its group (`group`: a Notion page). */
  creation: { via: 'json'; json: JsonCreation<any> } | { via: 'multipart' } | { via: 'upsert' } | { via: 'group' }
  /**
   * The fields of the stored config the API returns, named one by one: a field a kind stores later (a hash, a token,
   * a connection's secret) stays inside until it is listed here.
   */
  publicFields: readonly string[]
  /** A fragment's `source`: where its text can be found (README "Scores and sources"). */
  sourceOf(ds: DatasourceView): string
}

/** A kind that holds content itself: its text is extracted, chunked, embedded and written by the pipeline. */
export interface DocumentKind<T extends DatasourceType = DatasourceType> extends KindBase<T> {
  sync: 'document'
  /** Content at hand (no fetch): jobs are claimed, embedded and written together in batches. */
  batched: boolean
  /**
   * The text in sections with what locates it (page, slide…); a page's title names a discovered page; a fetched
   * kind's HTTP validators. `notModified`: the source says the content held is current (a 304), nothing to parse.
   */
  extract(job: Datasource, signal: AbortSignal, stored?: StoredBlob): Promise<Extracted>
  /** Its content is the original its upload or upsert stored: read with the batch's claim, given to `extract`. */
  readsStoredOriginal: boolean
  /** The datasource's error when it has no text. */
  noTextMessage: string
}

/**
 * A kind that holds no content itself but finds children (a web site's pages), queued as datasources of a document
 * kind with `groupId` set to it; its status is then its children's (lifecycle/group-status.ts).
 */
export interface GroupKind<T extends DatasourceType = DatasourceType> extends KindBase<T> {
  sync: 'group'
  /** Discovers the children, makes the stored ones match, and leaves the group waiting for them (settle.awaitChildren); answers the group's status then. */
  syncGroup(job: Datasource, ctx: JobContext): Promise<DatasourceStatus | null>
}


export type Extracted = { sections: Section[]; title?: string; validators?: HttpValidators } | { notModified: true; validators: HttpValidators }

export type DatasourceKind<T extends DatasourceType = DatasourceType> = DocumentKind<T> | GroupKind<T>

/** The source a document names in its metadata (`metadata.source`), else the datasource's name. */
export function documentSource(ds: DatasourceView): string {
  const source = ds.metadata.source
  return typeof source === 'string' && source ? source : ds.name
}

/** A stored config's field as text, or undefined. */
export function configText(config: StoredConfig, key: string): string | undefined {
  const value = config[key]
  return typeof value === 'string' && value ? value : undefined
}

/** A JSON column's value (a stored config, metadata) as an object: {} for anything else (null, an array, a scalar). */
export function asObject(value: unknown): StoredConfig {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as StoredConfig) : {}
}
