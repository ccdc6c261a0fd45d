import { generateText } from 'ai'
import { config } from '@/lib/config'
import { UpstreamUnavailable } from '@/lib/http/errors'
import { logger } from '@/lib/logger'
import { limitPublicQuery } from '@/lib/rate-limit/public-queries'
import { releaseAgentQuery, recordModelTokens, reserveAgentQuery, type AgentQueryReservation } from '@/lib/usage/agent-queries'
import type { AgentAccess } from './agent-access'
import type { AgentQuery } from './agent-schemas'
import { streamAnswer } from './answer-stream'
import { openConversation, recentHistory, resolveConversationTarget, saveAnswer, type AnswerSource } from './conversations'
import { chatModel, type ChatModel } from './model-catalogue'
import { startModelDeadline } from './model-deadline'
import { describeModelFailure } from './model-failure'
import { assemblePrompt, type AssembledPrompt } from './prompt'
import { retrieveFragments } from './retrieval'

// The query pipeline of spec §4.2 (DESIGN.md §7). Everything that can refuse the query (rate limit, no model,
// unknown conversation, usage limit, retrieval) happens before any byte of an answer, so that a streaming query is
// refused with an ordinary JSON error; only the model call itself happens after the stream opens.

/** The non-streaming answer; a stream's `endpoint_response` carries the same object. */
export interface AgentAnswer {
  answer: string
  conversationId: string
  visitorId: string
  sources: AnswerSource[]
  messageId: string
}

/** A query ready for the model: its conversation opened, its question stored, its query counted. */
export interface PreparedQuery {
  model: ChatModel
  prompt: AssembledPrompt
  settings: {
    temperature: number
    topP?: number
    maxOutputTokens?: number
    presencePenalty?: number
    frequencyPenalty?: number
  }
  reservation: AgentQueryReservation
  conversationId: string
  visitorId: string
  sources: AnswerSource[]
}

export async function queryAgent(req: Request, access: AgentAccess, body: AgentQuery): Promise<Response> {
  if (!access.member) limitPublicQuery(req, body.visitorId)
  const prepared = await prepareQuery(access, body, req.signal)
  if (body.streaming) return streamAnswer(prepared, req.signal)
  return Response.json(await generateAnswer(prepared, req.signal))
}

export async function prepareQuery(access: AgentAccess, body: AgentQuery, signal?: AbortSignal): Promise<PreparedQuery> {
  const { agent } = access
  const model = chatModel(body.modelName ?? agent.modelName)
  const target = await resolveConversationTarget({
    organizationId: access.organizationId,
    agentId: agent.id,
    conversationId: body.conversationId,
    visitorId: body.visitorId,
  })
  const reservation = await reserveAgentQuery(access.organizationId)
  let conversationId: string | undefined
  try {
    const opened = await openConversation(target, { text: body.query, channel: access.channel })
    conversationId = opened.conversationId
    const [history, fragments] = await Promise.all([
      recentHistory(opened.conversationId, opened.questionId),
      retrieveFragments({
        organizationId: access.organizationId,
        datastoreIds: agent.datastores.map(d => d.datastoreId),
        query: body.query,
        filters: body.filters,
        signal,
      }),
    ])
    const prompt = assemblePrompt({
      query: body.query,
      fragments,
      history,
      settings: {
        systemPrompt: body.systemPrompt ?? agent.systemPrompt,
        userPrompt: body.userPrompt ?? agent.userPrompt,
        promptType: body.promptType ?? agent.promptType,
        promptTemplate: body.promptTemplate ?? agent.promptTemplate,
      },
    })
    return {
      model,
      prompt,
      settings: {
        temperature: body.temperature ?? agent.temperature,
        topP: body.topP,
        maxOutputTokens: body.maxTokens,
        presencePenalty: body.presencePenalty,
        frequencyPenalty: body.frequencyPenalty,
      },
      reservation,
      conversationId: opened.conversationId,
      visitorId: opened.visitorId,
      sources: fragments.map(f => ({
        text: f.text,
        score: f.score,
        source: f.source,
        datasource_id: f.datasource_id,
        datasource_name: f.datasource_name,
      })),
    }
  } catch (error) {
    // the model was never asked: the query does not count, and the stored question says why it has no answer
    await releaseAgentQuery(reservation)
    if (conversationId) {
      const reason = error instanceof Error ? error.message : String(error)
      await saveAnswer(conversationId, { text: '', sources: [], error: reason.slice(0, 500) }).catch(() => {})
    }
    throw error
  }
}

export async function generateAnswer(query: PreparedQuery, clientSignal?: AbortSignal): Promise<AgentAnswer> {
  const deadline = startModelDeadline(clientSignal, config().AGENT_MODEL_TIMEOUT_SECONDS * 1000)
  let result: Awaited<ReturnType<typeof generateText>>
  try {
    result = await generateText({
      model: query.model.model,
      system: query.prompt.system,
      messages: query.prompt.messages,
      ...query.settings,
      maxRetries: 1,
      abortSignal: deadline.signal,
    })
  } catch (error) {
    const failure = describeModelFailure(error, deadline)
    logger.warn('agent model call failed', { model: query.model.id, status: failure.status, reason: failure.message })
    await saveAnswer(query.conversationId, { text: '', sources: query.sources, error: failure.message })
    await releaseAgentQuery(query.reservation)
    throw new UpstreamUnavailable(failure.message, failure.status === 504 ? 504 : 502)
  } finally {
    deadline.dispose()
  }
  const tokens = { promptTokens: result.usage.inputTokens ?? 0, completionTokens: result.usage.outputTokens ?? 0 }
  const messageId = await saveAnswer(query.conversationId, { text: result.text, sources: query.sources, ...tokens })
  await recordModelTokens(query.reservation, tokens)
  return { answer: result.text, conversationId: query.conversationId, visitorId: query.visitorId, sources: query.sources, messageId }
}
