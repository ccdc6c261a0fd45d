import { z } from 'zod'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import type { Fragment } from './types'
import { outboundFetch } from '@/lib/http/outbound-fetch'

// The optional reranker (README "Retrieval"): any server speaking the common /rerank API (Cohere, Jina, Hugging Face
// TEI, vLLM, LocalAI): POST {RERANK_BASE_URL}/rerank {model, query, documents, top_n} → {results: [{index,
// relevance_score}]}. It reorders the fused candidates and its relevance_score becomes the fragment's score. When it
// fails, answers something else or takes longer than RERANK_TIMEOUT_MS, the fused order stands (one log line).

export interface RerankerSettings {
  url: string
  model: string
  apiKey?: string
  timeoutMs: number
  candidates: number
}

/** The configured reranker, or null when RERANK_BASE_URL is not set. */
export function rerankerSettings(): RerankerSettings | null {
  const c = config()
  if (!c.RERANK_BASE_URL?.trim()) return null
  return {
    url: `${c.RERANK_BASE_URL.trim().replace(/\/+$/, '')}/rerank`,
    model: c.RERANK_MODEL,
    apiKey: c.RERANK_API_KEY || undefined,
    timeoutMs: c.RERANK_TIMEOUT_MS,
    candidates: c.RERANK_CANDIDATES,
  }
}

const RerankResponse = z.object({
  results: z.array(z.object({ index: z.number().int().min(0), relevance_score: z.number().finite() })),
})

/** The reranker's order of `documents` for the query, best first, `topN` at most. Throws when it fails. */
export async function rerank(settings: RerankerSettings, query: string, documents: string[], topN: number, signal?: AbortSignal) {
  const deadline = AbortSignal.timeout(settings.timeoutMs)
  const res = await outboundFetch(settings.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
    body: JSON.stringify({ model: settings.model, query, documents, top_n: topN }),
    signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
  })
  if (!res.ok) throw new Error(`the reranker answered HTTP ${res.status}`)
  const parsed = RerankResponse.safeParse(await res.json())
  if (!parsed.success) throw new Error('the reranker answered an unexpected shape')
  const seen = new Set<number>()
  return parsed.data.results
    .filter(r => r.index < documents.length && !seen.has(r.index) && seen.add(r.index))
    .sort((a, b) => b.relevance_score - a.relevance_score)
    .slice(0, topN)
    .map(r => ({ index: r.index, score: Math.round(r.relevance_score * 1e4) / 1e4 }))
}

/**
 * The `topK` best of the fused candidates, as the reranker orders and scores them; the fused first `topK` when it
 * fails or is slow (a client that went away still stops the search).
 */
export async function rerankFragments(settings: RerankerSettings, query: string, candidates: Fragment[], topK: number, signal?: AbortSignal): Promise<Fragment[]> {
  if (candidates.length === 0) return candidates
  try {
    const order = await rerank(settings, query, candidates.map(f => f.text), topK, signal)
    if (order.length === 0) throw new Error('the reranker returned no results')
    return order.map(({ index, score }) => ({ ...candidates[index], score }))
  } catch (error) {
    if (signal?.aborted) throw error
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : error instanceof Error ? error.message : String(error)
    logger.warn('reranker failed: keeping the fused order', { reason, model: settings.model })
    return candidates.slice(0, topK)
  }
}
