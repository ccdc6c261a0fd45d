import { z } from 'zod'
import { HAS_CHILDREN, type DatasourceType } from '@/lib/domain/datasources'
import { REFRESHABLE } from '@/lib/domain/refresh'
import type { $Enums } from '@/lib/generated/prisma/client'
import { fileKind } from './file'
import { asObject, type DatasourceKind, type DatasourceView, type DocumentKind, type JsonCreation } from './kind'
import { notionKind, notionPageKind } from './notion'
import { textKind } from './text'
import { webPageKind } from './web-page'
import { webSiteKind } from './web-site'

export { asObject } from './kind'
export type { DatasourceKind, DatasourceView, DocumentKind, Extracted, GroupKind, JobContext } from './kind'

// The vocabulary (lib/domain) and the database enum (prisma/schema.prisma) name the same kinds: a kind added to one
// and not the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameKinds: Same<DatasourceType, $Enums.DatasourceType> = true
void sameKinds

/**
 * Every datasource kind, by type. The pipeline, the routes, search and the resources ask the kind what to do;
 * none tests `type`. A new kind is a module here (docs/architecture.md).
 */
export const DATASOURCE_KINDS: { [T in DatasourceType]: DatasourceKind<T> } = {
  file: fileKind,
  text: textKind,
  web_page: webPageKind,
  web_site: webSiteKind,
  notion: notionKind,
  notion_page: notionPageKind,
}

// the dashboard's view of which kinds are groups (lib/domain) must be what the kinds do
for (const kind of Object.values(DATASOURCE_KINDS)) {
  if ((kind.sync === 'group') !== HAS_CHILDREN[kind.type]) throw new Error(`HAS_CHILDREN.${kind.type} disagrees with the ${kind.type} kind`)
  if (!!kind.refreshable !== REFRESHABLE[kind.type]) throw new Error(`REFRESHABLE.${kind.type} disagrees with the ${kind.type} kind`)
}

export function kindOf(type: DatasourceType): DatasourceKind {
  return DATASOURCE_KINDS[type]
}

/** Types whose jobs are claimed and run together. */
export const BATCHED_TYPES: DatasourceType[] = Object.values(DATASOURCE_KINDS)
  .filter((k): k is DocumentKind => k.sync === 'document' && k.batched)
  .map(k => k.type)

/** Types refreshed on a schedule (fetched from elsewhere): their own interval, else their datastore's. */
export const REFRESHABLE_TYPES: DatasourceType[] = Object.values(DATASOURCE_KINDS)
  .filter(k => k.refreshable)
  .map(k => k.type)

/** A datasource as the code that shows it reads it: config and metadata as objects. */
export function viewOf(ds: { name: string; config: unknown; metadata: unknown }): DatasourceView {
  return { name: ds.name, config: asObject(ds.config), metadata: asObject(ds.metadata) }
}


/** The public config of a datasource of `type`: what its kind lets the API return. */
export function publicConfigOf(type: DatasourceType, config: unknown): Record<string, unknown> {
  const stored = asObject(config)
  return Object.fromEntries(kindOf(type).publicFields.filter(field => field in stored).map(field => [field, stored[field]]))
}

/** The kinds created with a JSON body, with the schema of their `config`. */
export function jsonCreatedKinds(): { type: DatasourceType; json: JsonCreation<unknown> }[] {
  return Object.values(DATASOURCE_KINDS).flatMap(k => (k.creation.via === 'json' ? [{ type: k.type, json: k.creation.json }] : []))
}

/** The JSON create body's `config` for `type`, validated by its kind's schema. */
export function jsonConfigSchema(type: DatasourceType): z.ZodType | null {
  const kind = kindOf(type)
  return kind.creation.via === 'json' ? kind.creation.json.configSchema : null
}
