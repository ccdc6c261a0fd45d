import type { EmbeddingsProvider } from '@/lib/embeddings/provider'
import { messageOf, transientError } from './errors'
import type { ChunkDraft } from './sections'

/**
 * The chunks' embeddings, in order (the provider sends them in batches). Runs before the write transaction: never
 * hold a transaction open across network calls. A failing provider is a transient error: the job is retried.
 */
export async function embedChunks(provider: EmbeddingsProvider, chunks: ChunkDraft[], signal?: AbortSignal): Promise<number[][]> {
  if (chunks.length === 0) return []
  try {
    const embeddings = await provider.embed(chunks.map(c => c.text), { signal })
    if (embeddings.length !== chunks.length) throw new Error(`${embeddings.length} embeddings for ${chunks.length} chunks`)
    return embeddings
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error
    throw transientError(messageOf(error), error)
  }
}

/** The embeddings model as the content hash records it ("model@dimensions"), or null without a provider. */
export function embeddingsFingerprint(provider: EmbeddingsProvider | null): string | null {
  return provider ? `${provider.model}@${provider.dimensions}` : null
}
