import type { EmbeddingsProvider } from '@/lib/embeddings/provider'
import type { Datasource } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/logger'
import { embedChunks } from '../embed-chunks'
import { messageOf } from '../errors'
import { writeChunks, type ChunkWrite } from '../lifecycle'
import type { Heartbeat } from './heartbeat'
import type { RunStatus } from './run-jobs'
import { inSpan } from '@/lib/tracing/spans'

export interface Outcomes {
  /** `chunks`: how many it holds now, when that changed. */
  record(job: Datasource, status: RunStatus, chunks?: number): void
  fail(job: Datasource, error: unknown): Promise<void>
}

/**
 * Embeds and writes prepared jobs together: one embeddings request for all their chunks (the provider splits it
 * in batches) and one write transaction. When either fails for a group of several, each job is tried alone, so that
 * a job the provider or the database refuses fails by itself; a job alone fails with its error.
 */
export function embedAndWrite(group: ChunkWrite[], provider: EmbeddingsProvider | null, workerId: string, beat: Heartbeat, outcomes: Outcomes): Promise<void> {
  return writeEmbedded(startEmbedding(group, provider, beat, outcomes), workerId, beat, outcomes)
}

/**
 * The group's embeddings, requested now (the jobs the provider refuses are failed and left out). Needs no database:
 * a batch's embeddings come while its lane still waits for its next claim (issue 28), then `writeEmbedded` writes it.
 * Rejects only when the run as a whole stopped; a rejection the caller has not awaited yet is not unhandled.
 */
export function startEmbedding(group: ChunkWrite[], provider: EmbeddingsProvider | null, beat: Heartbeat, outcomes: Outcomes): Promise<ChunkWrite[]> {
  if (!provider || group.length === 0) return Promise.resolve(group)
  const chunks = group.reduce((n, item) => n + item.content.chunks.length, 0)
  const embedding = inSpan('sync.embed', { 'sync.chunks': chunks }, () => embedGroup(group, provider, beat.signal, outcomes))
  embedding.catch(() => {})
  return embedding
}

/** Writes a group once its embeddings came, but none of the jobs whose lease was lost meanwhile. */
export async function writeEmbedded(embedding: Promise<ChunkWrite[]>, workerId: string, beat: Heartbeat, outcomes: Outcomes): Promise<void> {
  const embedded = await embedding
  beat.signal.throwIfAborted()
  for (const item of embedded) if (beat.lost(item.job.id)) outcomes.record(item.job, 'lease_lost')
  const ready = embedded.filter(item => !beat.lost(item.job.id))
  if (ready.length > 0) await writeGroup(ready, workerId, outcomes)
}

async function embedGroup(group: ChunkWrite[], provider: EmbeddingsProvider, signal: AbortSignal, outcomes: Outcomes): Promise<ChunkWrite[]> {
  try {
    const embeddings = await embedChunks(provider, group.flatMap(item => item.content.chunks), signal)
    let offset = 0
    for (const item of group) item.content.embeddings = embeddings.slice(offset, (offset += item.content.chunks.length))
    return group
  } catch (error) {
    if (signal.aborted) throw error
    if (group.length === 1) {
      await outcomes.fail(group[0].job, error)
      return []
    }
  }
  const embedded: ChunkWrite[] = []
  for (const item of group) {
    try {
      item.content.embeddings = await embedChunks(provider, item.content.chunks, signal)
      embedded.push(item)
    } catch (error) {
      if (signal.aborted) throw error
      await outcomes.fail(item.job, error)
    }
  }
  return embedded
}

async function writeGroup(ready: ChunkWrite[], workerId: string, outcomes: Outcomes): Promise<void> {
  try {
    const written = await inSpan('sync.write', { 'sync.jobs': ready.length }, () => writeChunks(workerId, ready))
    ready.forEach((item, i) => outcomes.record(item.job, written[i].status, item.content.chunks.length))
    return
  } catch (error) {
    if (ready.length === 1) return outcomes.fail(ready[0].job, error)
    logger.warn('batched chunk write failed; writing job by job', { jobs: ready.length, error: messageOf(error) })
  }
  for (const item of ready) {
    try {
      const [written] = await inSpan('sync.write', { 'sync.jobs': 1 }, () => writeChunks(workerId, [item]))
      outcomes.record(item.job, written.status, item.content.chunks.length)
    } catch (error) {
      await outcomes.fail(item.job, error)
    }
  }
}
