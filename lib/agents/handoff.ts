import type { AgentAnswer, AnswerEvent } from '@/lib/domain/answer-events'
import type { AgentAccess } from './agent-access'
import type { AgentQuery } from './agent-schemas'
import { resolveAppearance } from './appearance'
import { openConversation, resolveConversationTarget, saveAnswer, type NamedConversation } from './conversations'

// A query into a conversation a person has taken over (issue 23: isAiEnabled false): the question is stored for the
// operator, the model is not called, and the answer is the agent's handoff message ("a person will reply here"),
// for JSON and stream clients alike. Not counted as a query of the model.

/**
 * The answer when a person has the query's conversation; null when the model answers as usual. `named`: the
 * conversation and visitor as the query read them (readNamedConversation).
 */
export async function answerIfPersonHas(access: AgentAccess, body: AgentQuery, named: NamedConversation): Promise<AgentAnswer | null> {
  if (!body.conversationId || !named.conversation || named.conversation.isAiEnabled) return null
  // the same checks as any query: the agent's conversation, the conversation's own visitor
  const target = await resolveConversationTarget({
    organizationId: access.organizationId,
    agentId: access.agent.id,
    conversationId: body.conversationId,
    visitorId: body.visitorId,
    member: access.member,
  }, named)
  // a caller who is not the conversation's visitor starts a conversation of their own (issue 22): the model answers it
  if (target.conversationId !== body.conversationId) return null
  const opened = await openConversation(target, { text: body.query, channel: access.channel })
  const text = resolveAppearance(access.agent.appearance).handoffMessage
  const messageId = await saveAnswer({ id: opened.conversationId, organizationId: access.organizationId, agentId: access.agent.id }, { text, sources: [] })
  return { answer: text, conversationId: opened.conversationId, visitorId: opened.visitorId, sources: [], messageId }
}

/** The same answer as a stream: one piece, the stored answer, the end. */
export async function* handoffEvents(answer: AgentAnswer): AsyncGenerator<AnswerEvent, void, undefined> {
  yield { type: 'answer', text: answer.answer }
  yield { type: 'endpoint_response', answer }
  yield { type: 'done' }
}
