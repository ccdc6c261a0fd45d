import { readOriginalBlob, type StoredBlob } from '@/lib/db/blob-store'
import type { Datasource } from '@/lib/generated/prisma/client'
import { transientError } from '../errors'
import { loadOriginal } from '../loaders'
import { ocrRequestFor } from '../pipeline/ocr-progress'
import type { Section } from '../sections'
import { inSpan } from '@/lib/tracing/spans'

/**
 * The sections of a datasource's stored original (an uploaded file, an upserted text); images and scans recognised.
 * `stored`: the original, when read already with the batch's claim.
 */
export async function loadStoredOriginal(job: Datasource, signal?: AbortSignal, stored?: StoredBlob): Promise<{ sections: Section[] }> {
  // read with the claim, its span says so: a trace still shows each job's fetch
  const fetched = stored ? { 'sync.source': 'claim' } : { 'sync.source': 'blob_store' }
  const original = await inSpan('sync.fetch', fetched, async () => stored ?? (await readOriginalBlob(job.id)))
  // transient: an upload stores its original before queueing, but a blob store on another machine may lag
  if (!original) throw transientError('The original content of this datasource was not found in the blob store')
  const sections = await inSpan('sync.parse', { 'sync.content_type': original.contentType, 'sync.bytes': original.data.length }, () =>
    loadOriginal(original.data, original.contentType, { ocr: ocrRequestFor(job, signal) }),
  )
  return { sections }
}
