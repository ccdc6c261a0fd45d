import { readOriginalRows, type StoredBlob } from '@/lib/db/blob-store'
import { getDatabase } from '@/lib/db/client'
import type { EmbeddingsProvider } from '@/lib/embeddings/provider'
import type { Datasource } from '@/lib/generated/prisma/client'
import { storedTokens, storedTokensLimit } from '@/lib/usage/stored-tokens'
import { chunkingFor, chunkSectionsYielding } from '../chunker'
import { contentHash } from '../content-hash'
import { embeddingsFingerprint } from '../embed-chunks'
import { LeaseLost, permanentError } from '../errors'
import { kindOf, type DocumentKind } from '../kinds'
import { settle, settleUnchanged, usageLimitMessage, type ChunkWrite } from '../lifecycle'
import { textSizeOf, type Section } from '../sections'
import type { RunStatus } from './run-jobs'
import { inSpan } from '@/lib/tracing/spans'

type Store = { id: string; chunkSize: number; chunkOverlap: number }

/** What preparing a batch's jobs reads once: their datastores' chunking, the embeddings model, limits and stored tokens per organization. */
export class PrepareContext {
  private limits = new Map<string, number>()
  private stored = new Map<string, number>()
  private unconfirmed: Promise<unknown> | null = null
  private constructor(
    private stores: Map<string, Store>,
    private originals: Map<string, StoredBlob>,
    readonly provider: EmbeddingsProvider | null,
  ) {}

  static async load(jobs: Datasource[], provider: EmbeddingsProvider | null): Promise<PrepareContext> {
    const { prisma } = await getDatabase()
    const ids = [...new Set(jobs.map(j => j.datastoreId))]
    const stores = await prisma.datastore.findMany({ where: { id: { in: ids } }, select: { id: true, chunkSize: true, chunkOverlap: true } })
    const originals = await readOriginalRows(jobs.filter(j => readsStoredOriginal(j.type)).map(j => j.id))
    const context = new PrepareContext(new Map(stores.map(s => [s.id, s])), originals, provider)
    // read now, with the claim: not behind another batch's write, which holds the embedded database's one connection
    for (const organizationId of new Set(jobs.map(j => j.organizationId))) {
      await context.limitOf(organizationId)
      await context.storedOf(organizationId)
    }
    return context
  }

  store(id: string): Store | undefined {
    return this.stores.get(id)
  }

  /** The job's stored original, read with the claim (once: the batch does not keep it after). */
  takeOriginal(jobId: string): StoredBlob | undefined {
    const original = this.originals.get(jobId)
    this.originals.delete(jobId)
    return original
  }

  async limitOf(organizationId: string): Promise<number> {
    let limit = this.limits.get(organizationId)
    if (limit === undefined) this.limits.set(organizationId, (limit = await storedTokensLimit(organizationId)))
    return limit
  }

  /** The organization's stored tokens, read once, then counted as this batch's groups are written (writing). */
  async storedOf(organizationId: string): Promise<number> {
    let total = this.stored.get(organizationId)
    if (total === undefined) this.stored.set(organizationId, (total = await storedTokens(organizationId)))
    return total
  }

  /**
   * A group is being written: its jobs' tokens replace those their chunks held, in the counts the next jobs are
   * checked against (read again, the database would answer only after that write, which holds the embedded one).
   * The write itself checks the limit exactly.
   */
  writing(group: ChunkWrite[], written: Promise<unknown>): void {
    for (const { job, content } of group) {
      const total = this.stored.get(job.organizationId)
      if (total !== undefined) this.stored.set(job.organizationId, total - job.nbTokens + content.chunks.reduce((n, c) => n + c.tokens, 0))
    }
    this.unconfirmed = written
  }

  /**
   * Before a job is refused on counts that assumed a write under way succeeds: waits for that write and reads the
   * counts again (one of its jobs may have ended over the limit, its tokens not stored). False when nothing was assumed.
   */
  async confirm(): Promise<boolean> {
    const written = this.unconfirmed
    if (!written) return false
    await written.catch(() => {})
    this.unconfirmed = null
    this.stored = new Map()
    return true
  }
}

function readsStoredOriginal(type: Datasource['type']): boolean {
  const kind = kindOf(type)
  return kind.sync === 'document' && kind.readsStoredOriginal
}

export type Prepared = { done: RunStatus } | { write: ChunkWrite }

/**
 * A document job up to its embeddings: the text extracted by its kind; an unchanged content hash ends it at once
 * (its chunks stand); else chunked, and the stored-token limit checked before paying for embeddings (and again,
 * exactly, when writing).
 */
export async function prepareDocument(job: Datasource, kind: DocumentKind, workerId: string, signal: AbortSignal, context: PrepareContext): Promise<Prepared> {
  const store = context.store(job.datastoreId)
  // the datastore was deleted since the claim, and the datasource with it
  if (!store) throw new LeaseLost(job.id)
  const chunking = chunkingFor(store)
  const hashOf = (sections: Section[]) => contentHash({ sections, chunking, embeddingsModel: embeddingsFingerprint(context.provider), customId: job.customId })
  // a conditional fetch only while the chunks depend on nothing else that changed (chunking, model, custom id)
  const fetchContext = hashOf([])
  const conditional = job.fetchContext === fetchContext ? job : { ...job, httpEtag: null, httpLastModified: null }
  const extracted = await kind.extract(conditional, signal, context.takeOriginal(job.id))
  // a 304: nothing parsed, chunked or embedded
  if ('notModified' in extracted) {
    return { done: (await settleUnchanged(job, workerId, { ...extracted.validators, context: fetchContext })) ? 'synched' : 'lease_lost' }
  }
  const { sections, title } = extracted
  const validators = extracted.validators && { ...extracted.validators, context: fetchContext }
  const hash = hashOf(sections)
  if (hash === job.contentHash && job.lastSynch) {
    return { done: (await settleUnchanged(job, workerId, validators)) ? 'synched' : 'lease_lost' }
  }
  const chunks = await inSpan('sync.chunk', { 'sync.sections': sections.length }, () => chunkSectionsYielding(sections, chunking))
  if (chunks.length === 0) throw permanentError(kind.noTextMessage)
  const tokens = chunks.reduce((n, c) => n + c.tokens, 0)
  const limit = await context.limitOf(job.organizationId)
  const projectedNow = async () => (await context.storedOf(job.organizationId)) - job.nbTokens + tokens
  let projected = await projectedNow()
  if (projected > limit && (await context.confirm())) projected = await projectedNow()
  if (projected > limit) {
    const ended = await settle.usageLimitReached(job.id, workerId, usageLimitMessage(tokens, projected, limit))
    return { done: ended ? 'usage_limit_reached' : 'lease_lost' }
  }
  // a page a site found is named by its title, and so is a page added alone without a name (named by its URL until now)
  const name = title && (job.groupId || namedByDefault(job, kind)) ? title.slice(0, 300) : null
  return { write: { job, limit, validators, content: { chunks, embeddings: null, textSize: textSizeOf(sections), contentHash: hash, name } } }
}

/** Whether the datasource still has the name its kind gives one created without a name (a web page: its URL). */
function namedByDefault(job: Datasource, kind: DocumentKind): boolean {
  if (kind.creation.via !== 'json') return false
  try {
    return job.name === kind.creation.json.defaultName(job.config)
  } catch {
    return false
  }
}
