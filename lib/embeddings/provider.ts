import { metrics } from '@/lib/metrics/registry'
import { outboundFetch } from '@/lib/http/outbound-fetch'
import { embedMany } from 'ai'
import { config } from '@/lib/config'
import { UpstreamUnavailable } from '@/lib/http/errors'
import { openAICompatibleEmbeddingModel } from './openai-compatible-model'

// Inputs per embeddings request: large enough to amortise the round trip, small enough for every provider's limit
export const EMBEDDING_BATCH_SIZE = 96

// @ai-sdk/openai's default base, which OPENAI_BASE_URL replaces
const OPENAI_API_URL = 'https://api.openai.com/v1'

export interface EmbeddingsProvider {
  model: string
  dimensions: number
  /** maxRetries: per request, default 2 (each retry waits seconds: a query path may want fewer). */
  embed(texts: string[], options?: { signal?: AbortSignal; maxRetries?: number }): Promise<number[][]>
}

/**
 * The configured embeddings provider (OPENAI_API_KEY, OPENAI_BASE_URL, EMBEDDINGS_MODEL, EMBEDDINGS_DIMENSIONS),
 * or null: then search is full-text only.
 */
export function embeddingsProvider(): EmbeddingsProvider | null {
  const env = config()
  if (!env.OPENAI_API_KEY) return null
  const dimensions = env.EMBEDDINGS_DIMENSIONS
  const model = openAICompatibleEmbeddingModel({ baseURL: env.OPENAI_BASE_URL || OPENAI_API_URL, apiKey: env.OPENAI_API_KEY, model: env.EMBEDDINGS_MODEL, dimensions, fetch: outboundFetch })
  return {
    model: env.EMBEDDINGS_MODEL,
    dimensions,
    async embed(texts, options) {
      const out: number[][] = []
      for (let i = 0; i < texts.length; i += EMBEDDING_BATCH_SIZE) {
        try {
          const { embeddings } = await embedMany({
            model,
            values: texts.slice(i, i + EMBEDDING_BATCH_SIZE),
            maxRetries: options?.maxRetries ?? 2,
            abortSignal: options?.signal,
          })
          for (const e of embeddings) {
            if (e.length !== dimensions) {
              throw new UpstreamUnavailable(`The embeddings model returned ${e.length} dimensions; EMBEDDINGS_DIMENSIONS is ${dimensions}`)
            }
          }
          out.push(...embeddings)
          metrics().embeddingsCalls.inc({ outcome: 'ok' })
        } catch (error) {
          metrics().embeddingsCalls.inc({ outcome: 'failed' })
          if (error instanceof UpstreamUnavailable) throw error
          throw new UpstreamUnavailable(`The embeddings provider failed: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
      return out
    },
  }
}

/** pgvector's text form of a vector, for a `$n::vector` parameter. */
export function toVectorLiteral(embedding: number[]): string {
  return `[${embedding.join(',')}]`
}
