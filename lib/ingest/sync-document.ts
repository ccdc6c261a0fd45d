import { getBlobStore, originalKey } from '@/lib/db/blob-store'
import { getDatabase } from '@/lib/db/client'
import type { Datasource } from '@/lib/generated/prisma/client'
import { embeddingsProvider } from '@/lib/search/embeddings'
import { storedTokens, storedTokensLimit } from '@/lib/usage/stored-tokens'
import { chunkingFor, chunkSections } from './chunker'
import { contentHash } from './content-hash'
import { embedChunks, embeddingsFingerprint } from './embed-chunks'
import { LeaseLost, permanentError, transientError } from './errors'
import { settle } from './lease'
import { loadOriginal } from './loaders'
import { textSizeOf, type Section } from './sections'
import { fetchWebPage } from './web/page'
import { replaceChunks, usageLimitMessage } from './write-chunks'

export interface JobContext {
  workerId: string
  leaseMs: number
  /** Aborted when the lease is lost or the worker stops. */
  signal: AbortSignal
}

export interface JobOutcome {
  status: 'synched' | 'error' | 'usage_limit_reached' | 'pending' | 'running' | 'unsynched'
  chunks: number
  /** The content hash matched: nothing was re-chunked or embedded. */
  unchanged?: boolean
}


/**
 * Synchronises a datasource that holds content itself (file, text, web_page): extract its text, skip everything
 * if the content hash is unchanged, else chunk, check the stored-token limit, embed, and replace its chunks.
 */
export async function syncDocument(job: Datasource, ctx: JobContext): Promise<JobOutcome> {
  const { prisma } = await getDatabase()
  const store = await prisma.datastore.findUnique({ where: { id: job.datastoreId }, select: { chunkSize: true, chunkOverlap: true } })
  if (!store) throw new LeaseLost(job.id)
  const { sections, title } = await extract(job, ctx.signal)
  const provider = embeddingsProvider()
  const chunking = chunkingFor(store)
  const hash = contentHash({ sections, chunking, embeddingsModel: embeddingsFingerprint(provider), customId: job.customId })
  if (hash === job.contentHash && job.lastSynch) {
    await settle.unchanged(job.id, ctx.workerId)
    return { status: 'synched', chunks: job.nbChunks, unchanged: true }
  }

  const chunks = chunkSections(sections, chunking)
  if (chunks.length === 0) throw permanentError(job.type === 'web_page' ? 'The page has no text' : 'The file has no text')
  const tokens = chunks.reduce((n, c) => n + c.tokens, 0)
  // checked before paying for embeddings, and again, exactly, when writing
  const limit = await storedTokensLimit(job.organizationId)
  const projected = (await storedTokens(job.organizationId)) - job.nbTokens + tokens
  if (projected > limit) {
    await settle.usageLimitReached(job.id, ctx.workerId, usageLimitMessage(tokens, projected, limit))
    return { status: 'usage_limit_reached', chunks: job.nbChunks }
  }

  const embeddings = provider ? await embedChunks(provider, chunks, ctx.signal) : null
  ctx.signal.throwIfAborted()
  // a page discovered by a site crawl is named by its title
  const name = job.groupId && title ? title.slice(0, 300) : null
  const outcome = await replaceChunks(job, ctx.workerId, { chunks, embeddings, textSize: textSizeOf(sections), contentHash: hash, name }, limit)
  return outcome.status === 'synched' ? { status: 'synched', chunks: chunks.length } : { status: outcome.status, chunks: job.nbChunks }
}

/** The datasource's text in sections (a web page fetched, else its stored original loaded). */
export async function extract(job: Datasource, signal: AbortSignal): Promise<{ sections: Section[]; title?: string }> {
  if (job.type === 'web_page') {
    const url = (job.config as { source_url?: unknown } | null)?.source_url
    if (typeof url !== 'string' || !url) throw permanentError('This web page has no source_url in its config')
    const page = await fetchWebPage(url, { signal })
    return { sections: [{ text: page.text, metadata: page.title ? { title: page.title } : {} }], title: page.title ?? undefined }
  }
  const original = await (await getBlobStore()).get(originalKey(job.id))
  // transient: an upload stores its original before queueing, but a blob store on another machine may lag
  if (!original) throw transientError('The original content of this datasource was not found in the blob store')
  return { sections: await loadOriginal(original.data, original.contentType) }
}
