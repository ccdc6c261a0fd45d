import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import type { SourcesVisibility } from '@/lib/domain/agents'
import type { AgentAnswer, AnswerEvent, AnswerSource } from '@/lib/domain/answer-events'
import { logger } from '@/lib/logger'
import { releaseAgentQuery, type AgentQueryReservation } from '@/lib/usage/agent-queries'
import { visibleSources } from './appearance'
import { saveAnswer, type ConversationRef } from './conversations'
import type { RetrievalRecord } from './retrieval'

// How a query ends, whichever way it ends (the one settle policy of the query pipeline): an answer is stored with its
// sources and tokens; a failure is stored as the answer's error with whatever text came before it, and a query the
// model never answered gives its count back. Failures to store are logged, never dropped silently.

export interface ModelTokens {
  promptTokens: number
  completionTokens: number
}

/** What a query has opened: its count, and its conversation once the question is stored. */
export interface OpenedQuery {
  reservation: AgentQueryReservation
  organizationId: string
  agentId: string
  conversationId: string
  visitorId: string
  sources: AnswerSource[]
  /** The query searched, the best score, whether nothing cleared the floor (issue 13), stored with the answer. */
  retrieval?: RetrievalRecord
  /** How much of the sources the caller sees (a visitor of a public agent: the agent's choice); all when unset. */
  sourcesVisibility?: SourcesVisibility
  /** Whether the caller sees the tool calls (the agent's organization: yes; a visitor of the public chat: no). */
  showToolCalls?: boolean
}

/** Stores the answer and its tokens: the endpoint_response and done events, or an error event when storing fails. */
export async function settleAnswer(query: OpenedQuery, text: string, tokens: ModelTokens, toolCalls: ToolCallRecord[] = []): Promise<AnswerEvent[]> {
  try {
    // the tokens are counted by the statement that stores the answer
    const messageId = await saveAnswer(conversationOf(query, query.conversationId), { text, sources: query.sources, ...tokens, ...query.retrieval, toolCalls }, query.reservation)
    const answer: AgentAnswer = {
      answer: text,
      conversationId: query.conversationId,
      visitorId: query.visitorId,
      sources: visibleSources(query.sources, query.sourcesVisibility ?? 'full'),
      messageId,
      // the agent's organization sees what its tools did; a visitor of the public chat does not
      ...(toolCalls.length && query.showToolCalls ? { toolCalls } : {}),
    }
    return [{ type: 'endpoint_response', answer }, { type: 'done' }]
  } catch (error) {
    logger.error('could not store an answer', { conversationId: query.conversationId, error })
    return [{ type: 'error', message: 'The answer could not be stored', cause: error instanceof Error ? error : new Error(String(error)) }]
  }
}

/**
 * Stores the failure with the text said before it; gives the query back when the caller received none of it (no
 * text was said, or the reply was to be JSON, which a failure replaces with an error).
 */
export async function settleFailedAnswer(
  query: Pick<OpenedQuery, 'reservation' | 'organizationId' | 'agentId' | 'sources' | 'retrieval'> & { conversationId?: string; toolCalls?: ToolCallRecord[] },
  text: string,
  reason: string,
  delivered: 'as-it-comes' | 'at-the-end' = 'as-it-comes',
): Promise<void> {
  if (query.conversationId) {
    await saveAnswer(conversationOf(query, query.conversationId), { text, sources: query.sources, ...query.retrieval, toolCalls: query.toolCalls, error: reason.slice(0, 500) }).catch(error =>
      logger.error('could not store a failed answer', { conversationId: query.conversationId, error }),
    )
  }
  if (!text || delivered === 'at-the-end') {
    await releaseAgentQuery(query.reservation).catch(error => logger.error('could not give back an unanswered query', { error }))
  }
}

const conversationOf = (query: Pick<OpenedQuery, 'organizationId' | 'agentId'>, id: string): ConversationRef => ({ id, organizationId: query.organizationId, agentId: query.agentId })
