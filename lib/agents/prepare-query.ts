import type { AnswerSource } from '@/lib/domain/answer-events'
import { DEFAULT_MIN_SCORE } from '@/lib/domain/limits'
import type { Fragment } from '@/lib/search/types'
import { agentQueryInStatement, reserveAgentQuery } from '@/lib/usage/agent-queries'
import type { AgentAccess } from './agent-access'
import type { AgentWithDatastores } from './agent-resource'
import type { AgentQuery } from './agent-schemas'
import { historyWithinBudget, openConversation, recentHistory, resolveConversationTarget, type ConversationTarget, type NamedConversation, type OpenedConversation } from './conversations'
import { chatModel, type ChatModel } from './model-catalogue'
import { assemblePrompt, type AssembledPrompt, type HistoryMessage, type PromptSettings } from './prompt'
import { settleFailedAnswer, type OpenedQuery } from './query-outcome'
import { honouredQuery } from './query-overrides'
import { retrieveForQuestion } from './retrieval'
import { storedTools, type StoredTool } from './tools'

// Everything that can refuse a query (no model, unknown conversation, usage limit, retrieval) happens here, before
// any byte of an answer, so that a streaming query is refused with an ordinary JSON error.

/** A query ready for the model: its conversation opened, its question stored, its query counted. */
export interface PreparedQuery extends OpenedQuery {
  /** The agent's tools (issue 25), offered to the model. */
  tools: StoredTool[]
  model: ChatModel
  prompt: AssembledPrompt
  settings: {
    temperature: number
    topP?: number
    maxOutputTokens?: number
    presencePenalty?: number
    frequencyPenalty?: number
  }
}

export async function prepareQuery(access: AgentAccess, asked: AgentQuery, named: NamedConversation, signal?: AbortSignal): Promise<PreparedQuery> {
  const { agent } = access
  const body = honouredQuery(asked, agent, access.member)
  // the organization's own map first (issue 27): read with the agent for every answer, so an edit applies to the next one
  const model = chatModel(body.modelName ?? agent.modelName, access.organizationModels)
  const target = await resolveConversationTarget({
    organizationId: access.organizationId,
    agentId: agent.id,
    conversationId: body.conversationId,
    visitorId: body.visitorId,
    member: access.member,
  }, named)
  // counted by the question's statement (one exchange fewer), except for a conversation adopted under a chosen id
  // (several statements) and an organization seen at its limit this month: those first, on their own, so that a
  // refused query starts nothing
  const counting = target.adopt ? null : agentQueryInStatement(access.organizationId)
  const reservation = counting?.reservation ?? (await reserveAgentQuery(access.organizationId))
  let refused = false
  const reserve = counting && { part: counting.part, refused: () => ((refused = true), counting.refused()) }
  const opening = openConversation(target, { text: body.query, channel: access.channel }, reserve ?? undefined)
  let conversationId: string | undefined
  try {
    const retrieve = (history: HistoryMessage[], retrieving: AbortSignal) => retrieveForQuestion({
      organizationId: access.organizationId,
      datastoreIds: agent.datastores.map(d => d.datastoreId),
      question: body.query,
      history,
      model: model.model,
      rewrite: body.rewriteQuestion ?? agent.rewriteQuestions,
      minScore: body.minScore ?? agent.minScore ?? DEFAULT_MIN_SCORE,
      filters: body.filters,
      signal: retrieving,
    })
    const { opened, history, found } = await storeAndRetrieve(opening, knownHistory(target, named), retrieve, signal)
    conversationId = opened.conversationId
    const { fragments, ...retrieval } = found
    const noSources = retrieval.noSources ? { instruction: agent.noAnswerMessage } : undefined
    return {
      organizationId: access.organizationId,
      agentId: agent.id,
      tools: storedTools(agent.tools),
      model,
      prompt: assemblePrompt({ query: body.query, fragments, history, settings: promptSettings(body, agent), noSources }),
      settings: modelSettings(body, agent),
      reservation,
      conversationId: opened.conversationId,
      visitorId: opened.visitorId,
      sources: fragments.map(toAnswerSource),
      retrieval,
    }
  } catch (error) {
    const opened = await opening.then(o => ({ o }), (refusal: unknown) => ({ refusal }))
    // refused by the question's statement: nothing was written or counted, and the refusal is the answer
    if (refused) throw 'refusal' in opened ? opened.refusal : error
    conversationId ??= 'o' in opened ? opened.o.conversationId : undefined
    // the model was never asked: the query does not count, and the stored question says why it has no answer
    await settleFailedAnswer({ reservation, organizationId: access.organizationId, agentId: agent.id, conversationId, sources: [] }, '', error instanceof Error ? error.message : String(error))
    throw error
  }
}

/**
 * The question's history when it is known before the question is stored: none for a conversation the query begins,
 * the latest messages read with a conversation that existed (readNamedConversation); undefined for a conversation
 * under a client's id, which another query may be starting at this moment.
 */
function knownHistory(target: ConversationTarget, named: NamedConversation): HistoryMessage[] | undefined {
  if (target.adopt) return undefined
  return target.conversationId ? historyWithinBudget(named.latestMessages) : []
}

/**
 * Stores the question and retrieves for it. With the history known, both at once: the retrieval's calls to the
 * model (the follow-up's rewrite) and to the embeddings overlap the question's write; a write that fails stops the
 * retrieval (its signal). Both end before any answer.
 */
export async function storeAndRetrieve<Opened extends OpenedConversation, Found>(
  opening: Promise<Opened>,
  known: HistoryMessage[] | undefined,
  retrieve: (history: HistoryMessage[], signal: AbortSignal) => Promise<Found>,
  signal?: AbortSignal,
): Promise<{ opened: Opened; history: HistoryMessage[]; found: Found }> {
  const stop = new AbortController()
  const retrieving = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal
  if (known) {
    const [opened, found] = await Promise.all([opening.catch(error => (stop.abort(error), Promise.reject(error))), retrieve(known, retrieving)])
    return { opened, history: known, found }
  }
  const opened = await opening
  const history = opened.started ? [] : await recentHistory(opened.conversationId, opened.questionId)
  return { opened, history, found: await retrieve(history, retrieving) }
}

/** The body's prompts, else the agent's. */
function promptSettings(body: AgentQuery, agent: AgentWithDatastores): PromptSettings {
  return {
    systemPrompt: body.systemPrompt ?? agent.systemPrompt,
    userPrompt: body.userPrompt ?? agent.userPrompt,
    promptType: body.promptType ?? agent.promptType,
    promptTemplate: body.promptTemplate ?? agent.promptTemplate,
    canRequestHuman: storedTools(agent.tools).some(t => t.type === 'request_human'),
  }
}

function modelSettings(body: AgentQuery, agent: AgentWithDatastores): PreparedQuery['settings'] {
  return {
    temperature: body.temperature ?? agent.temperature,
    topP: body.topP,
    maxOutputTokens: body.maxTokens ?? agent.maxTokens ?? undefined,
    presencePenalty: body.presencePenalty,
    frequencyPenalty: body.frequencyPenalty,
  }
}

function toAnswerSource(f: Fragment): AnswerSource {
  return { text: f.text, score: f.score, source: f.source, datasource_id: f.datasource_id, datasource_name: f.datasource_name }
}
