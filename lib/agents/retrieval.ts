import { phaseTimer } from '@/lib/metrics/agents'
import type { LanguageModel } from 'ai'
import { config } from '@/lib/config'
import { hybridSearch } from '@/lib/search/hybrid-search'
import { inSpan } from '@/lib/tracing/spans'
import { applyFloor } from '@/lib/search/relevance'
import type { Fragment, QueryFilters } from '@/lib/search/types'
import type { HistoryMessage } from './prompt'
import { standaloneQuestion } from './standalone-question'

/** What an answer was grounded in, stored with it (Message.searchQuery, topScore, noSources). */
export interface RetrievalRecord {
  /** The query searched: a follow-up's standalone rewrite, else the question; null when nothing was searched. */
  searchQuery: string | null
  /** The best fragment's score before the floor; null when nothing was found. */
  topScore: number | null
  /** The agent reads datastores and nothing cleared its floor: it is told to say it does not know. */
  noSources: boolean
}

export interface Retrieval extends RetrievalRecord {
  fragments: Fragment[]
}

/**
 * The AGENT_TOP_K fragments of the agent's datastores that best match the question, within the body's filters, at
 * or above the floor. With `rewrite`, a follow-up (a question with history) is first made standalone by the model.
 */
export async function retrieveForQuestion(input: {
  organizationId: string
  datastoreIds: string[]
  question: string
  history: HistoryMessage[]
  model: LanguageModel
  rewrite: boolean
  minScore: number | null
  filters?: QueryFilters
  signal?: AbortSignal
}): Promise<Retrieval> {
  return inSpan('agent.retrieval', { 'agent.datastores': input.datastoreIds.length, 'agent.rewrite': input.rewrite }, () => retrieve(input))
}

async function retrieve(input: Parameters<typeof retrieveForQuestion>[0]): Promise<Retrieval> {
  if (input.datastoreIds.length === 0) return { fragments: [], searchQuery: null, topScore: null, noSources: false }
  const timer = phaseTimer()
  const { query } = input.rewrite
    ? await standaloneQuestion({ model: input.model, question: input.question, history: input.history, signal: input.signal })
    : { query: input.question }
  if (input.rewrite) timer.phase('rewrite')
  const searched = phaseTimer()
  const found = await hybridSearch({
    organizationId: input.organizationId,
    datastoreIds: input.datastoreIds,
    query,
    topK: config().AGENT_TOP_K,
    filters: input.filters,
    signal: input.signal,
  })
  searched.phase('retrieval')
  const { fragments, topScore } = applyFloor(found, input.minScore)
  return { fragments, searchQuery: query, topScore, noSources: fragments.length === 0 }
}
