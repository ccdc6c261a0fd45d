import type { AgentAnswer, AnswerEvent, AnswerSource } from '@/lib/domain/answer-events'
import { logger } from '@/lib/logger'
import { recordModelTokens, releaseAgentQuery, type AgentQueryReservation } from '@/lib/usage/agent-queries'
import { saveAnswer } from './conversations'

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
  conversationId: string
  visitorId: string
  sources: AnswerSource[]
}

/** Stores the answer and its tokens: the endpoint_response and done events, or an error event when storing fails. */
export async function settleAnswer(query: OpenedQuery, text: string, tokens: ModelTokens): Promise<AnswerEvent[]> {
  try {
    const messageId = await saveAnswer(query.conversationId, { text, sources: query.sources, ...tokens })
    await recordModelTokens(query.reservation, tokens)
    const answer: AgentAnswer = { answer: text, conversationId: query.conversationId, visitorId: query.visitorId, sources: query.sources, messageId }
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
export async function settleFailure(
  query: Pick<OpenedQuery, 'reservation' | 'sources'> & { conversationId?: string },
  text: string,
  reason: string,
  delivered: 'as-it-comes' | 'at-the-end' = 'as-it-comes',
): Promise<void> {
  if (query.conversationId) {
    await saveAnswer(query.conversationId, { text, sources: query.sources, error: reason.slice(0, 500) }).catch(error =>
      logger.error('could not store a failed answer', { conversationId: query.conversationId, error }),
    )
  }
  if (!text || delivered === 'at-the-end') {
    await releaseAgentQuery(query.reservation).catch(error => logger.error('could not give back an unanswered query', { error }))
  }
}
