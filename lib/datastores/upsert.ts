import type { UpsertResult } from '@/lib/domain/datastores'
import type { TenantContext } from '@/lib/domain/tenant'
import { getBlobStore, originalKey, PLAIN_TEXT } from '@/lib/db/blob-store'
import { getPrisma } from '@/lib/db/client'
import { Prisma } from '@/lib/generated/prisma/client'
import { InvalidRequest, NotFound } from '@/lib/http/errors'
import { kindOf } from '@/lib/ingest/kinds'
import { textKind } from '@/lib/ingest/kinds/text'
import { createQueuedDatasources, enqueueDatasources } from '@/lib/ingest/lifecycle'
import { findDatastore } from './datastores'
import { findHolders, sha256Hex } from './duplicates'
import { newId } from '@/lib/db/ids'
import { UpsertBody, type UpsertDocument } from './schemas'
import { validate } from '@/lib/http/body'

const NAME_FROM_TEXT_LENGTH = 60

export const TEXT_CONTENT_TYPE = PLAIN_TEXT


/** The document's name, else the start of its text cut at a word, so lists of datasources stay readable. */
export function nameOfDocument(doc: Pick<UpsertDocument, 'name' | 'text'>): string {
  const given = doc.name?.trim()
  if (given) return given.slice(0, 200)
  const text = doc.text.replace(/\s+/g, ' ').trim()
  if (text.length <= NAME_FROM_TEXT_LENGTH) return text
  const cut = text.slice(0, NAME_FROM_TEXT_LENGTH)
  const space = cut.lastIndexOf(' ')
  return `${(space > NAME_FROM_TEXT_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/** metadata.custom_id (a string or a number) becomes the datasource's custom_id, so filters can use it. */
function customIdOf(metadata: Record<string, unknown> | null | undefined): string | null {
  const value = metadata?.custom_id
  if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 256)
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}



/**
 * Each document becomes a `text` datasource (its original stored, then queued); a document with the `id` of an
 * existing text datasource of this datastore replaces that one's content instead. A new document whose text a
 * datasource of this datastore (or an earlier document of the request) already holds gets that one's id and is not
 * indexed again, unless allowDuplicates. Answers the ids in document order.
 */
export async function upsertDocuments(
  ctx: TenantContext,
  datastoreId: string,
  documents: UpsertDocument[],
  { allowDuplicates = false } = {},
): Promise<UpsertResult> {
  const store = await findDatastore(ctx, datastoreId)
  await checkReplacements(ctx, store.id, documents)
  const hashes = documents.map(d => sha256Hex(d.text))
  const ids = documents.map(d => d.id ?? newId())
  const duplicates = allowDuplicates ? [] : await duplicatesOf(store.id, documents, hashes, ids)
  const skipped = new Set(duplicates.map(d => d.index))
  // Originals first: a datasource is queued only once its content can be read
  const blobs = await getBlobStore()
  const encoder = new TextEncoder()
  const stored = documents.flatMap((doc, i) => (skipped.has(i) ? [] : [i]))
  await blobs.putMany(stored.map(i => ({ key: originalKey(ids[i]), data: encoder.encode(documents[i].text), contentType: TEXT_CONTENT_TYPE })))

  await createQueuedDatasources(
    stored.flatMap(i => {
      const doc = documents[i]
      if (doc.id) return []
      return [{
        id: ids[i],
        organizationId: ctx.organizationId,
        datastoreId: store.id,
        type: textKind.type,
        name: nameOfDocument(doc),
        config: { sha256: hashes[i] },
        metadata: (doc.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
        customId: customIdOf(doc.metadata),
      }]
    }),
  )
  await replaceDocuments(ctx, documents, hashes)
  return duplicates.length > 0 ? { ids, duplicates } : { ids }
}

/** New documents (no `id`) whose text is held already: their ids become the holders' (in `ids`). */
async function duplicatesOf(datastoreId: string, documents: UpsertDocument[], hashes: string[], ids: string[]) {
  const holders = await findHolders(datastoreId, hashes)
  const duplicates: NonNullable<UpsertResult['duplicates']> = []
  documents.forEach((doc, i) => {
    if (doc.id) return
    const holder = holders.get(hashes[i])
    if (holder) {
      ids[i] = holder.id
      duplicates.push({ index: i, datasourceId: holder.id, name: holder.name })
    } else {
      holders.set(hashes[i], { id: ids[i], name: nameOfDocument(doc) })
    }
  })
  return duplicates
}

/** Documents with an `id`: their datasource takes the new name, metadata and text, and is queued again. */
async function replaceDocuments(ctx: TenantContext, documents: UpsertDocument[], hashes: string[]): Promise<void> {
  const prisma = await getPrisma()
  for (const [i, doc] of documents.entries()) {
    if (!doc.id) continue
    await prisma.datasource.updateMany({
      where: { id: doc.id, organizationId: ctx.organizationId },
      data: {
        name: nameOfDocument(doc),
        config: { sha256: hashes[i] },
        metadata: doc.metadata ? (doc.metadata as Prisma.InputJsonValue) : Prisma.DbNull,
        customId: customIdOf(doc.metadata),
      },
    })
  }
  await enqueueDatasources(documents.flatMap(d => (d.id ? [d.id] : [])))
}

/** Documents with an `id` name distinct datasources of this datastore that upserts may replace, else 400/404 naming the document. */
async function checkReplacements(ctx: TenantContext, datastoreId: string, documents: UpsertDocument[]): Promise<void> {
  const seen = new Set<string>()
  documents.forEach((d, index) => {
    if (!d.id) return
    if (seen.has(d.id)) {
      throw new InvalidRequest(`Document ${index} repeats the id of an earlier document`, [
        { path: `documents.${index}.id`, message: 'duplicate id in this request', code: 'custom' },
      ])
    }
    seen.add(d.id)
  })
  if (seen.size === 0) return
  const prisma = await getPrisma()
  const existing = await prisma.datasource.findMany({
    where: { id: { in: [...seen] }, datastoreId, organizationId: ctx.organizationId },
    select: { id: true, type: true },
  })
  const types = new Map(existing.map(e => [e.id, e.type]))
  documents.forEach((d, index) => {
    if (!d.id) return
    const type = types.get(d.id)
    if (!type) throw new NotFound(`Datasource ${d.id} of document ${index} in this datastore`)
    if (kindOf(type).creation.via !== 'upsert') {
      throw new InvalidRequest(`Document ${index}: datasource ${d.id} is not a text datasource; only those can be replaced by upsert`, [
        { path: `documents.${index}.id`, message: 'not a text datasource', code: 'custom' },
      ])
    }
  })
}

/** An upsert body validated as the endpoint does (0 documents → 400, too many → 413, a bad document → 400 naming its index). */
export function parseUpsertBody(body: unknown): UpsertDocument[] {
  return validate(UpsertBody, body).documents
}
