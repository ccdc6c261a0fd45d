import { phaseTimer, recordModelCall } from '@/lib/metrics/agents'
import { streamText } from 'ai'
import { config } from '@/lib/config'
import { unreachable, type AgentAnswer, type AnswerEvent } from '@/lib/domain/answer-events'
import { ModelFailed, type ModelError } from '@/lib/domain/errors'
import { logger } from '@/lib/logger'
import { startModelDeadline, type ModelDeadline } from './model-deadline'
import { describeModelFailure } from './model-failure'
import { recordModelFailure, recordModelSuccess } from './model-health'
import type { PreparedQuery } from './prepare-query'
import { settleAnswer, settleFailedAnswer, type ModelTokens } from './query-outcome'

// The model run of a query (spec §4.2, §6; DESIGN.md §7), streamed or not: `answer` pieces as the model writes them,
// then `endpoint_response` with the stored answer and `done`, or `error` once the failure is stored. A streaming
// query sends the events as they come; a JSON query is the same run, collected (collectAnswer). The run is stopped
// when the client goes away (clientSignal) or the model stays silent for AGENT_MODEL_TIMEOUT_SECONDS.

type ModelPart = { type: 'text'; text: string } | { type: 'usage'; tokens: ModelTokens }

/** `delivered`: whether the caller gets the pieces as they come (a stream) or only the whole answer (JSON). */
export async function* runModel(
  query: PreparedQuery,
  clientSignal?: AbortSignal,
  delivered: 'as-it-comes' | 'at-the-end' = 'as-it-comes',
): AsyncGenerator<AnswerEvent, void, undefined> {
  const deadline = startModelDeadline(clientSignal, config().AGENT_MODEL_TIMEOUT_SECONDS * 1000)
  const timer = phaseTimer()
  let text = ''
  let tokens: ModelTokens = { promptTokens: 0, completionTokens: 0 }
  let failure: ModelError | null = null
  try {
    for await (const part of modelParts(query, deadline)) {
      if (part.type === 'usage') {
        tokens = part.tokens
        continue
      }
      // an answer never starts with a line break (a stream's first data line cannot carry one: answer-events.ts)
      const piece = text ? part.text : part.text.replace(/^(?:\r\n|\r|\n)+/, '')
      if (!piece) continue
      if (!text) timer.phase('first_token')
      text += piece
      yield { type: 'answer', text: piece }
    }
  } catch (error) {
    failure = describeModelFailure(error, deadline, text.length > 0)
  } finally {
    deadline.dispose()
  }
  timer.phase('answer')
  recordModelCall(query.model.id, failure ? failure.kind : 'ok', tokens)
  if (failure) yield* await settleRunFailure(query, text, failure, delivered)
  else {
    recordModelSuccess()
    yield* await settleAnswer(query, text, tokens)
  }
}

/** The model's text pieces and its token usage; throws when the call fails or is stopped. */
async function* modelParts(query: PreparedQuery, deadline: ModelDeadline): AsyncGenerator<ModelPart, void, undefined> {
  const result = streamText({
    model: query.model.model,
    system: query.prompt.system,
    messages: query.prompt.messages,
    ...query.settings,
    maxRetries: 1,
    abortSignal: deadline.signal,
    onError: () => {}, // errors arrive as parts of fullStream below
  })
  for await (const part of result.fullStream) {
    deadline.touch()
    if (part.type === 'text-delta' && part.text) yield { type: 'text', text: part.text }
    else if (part.type === 'error') throw part.error
    else if (part.type === 'abort') throw new Error(part.reason ?? 'aborted')
    else if (part.type === 'finish') {
      yield { type: 'usage', tokens: { promptTokens: part.totalUsage.inputTokens ?? 0, completionTokens: part.totalUsage.outputTokens ?? 0 } }
    }
  }
  if (deadline.cause) throw new Error('stopped')
}

async function settleRunFailure(query: PreparedQuery, text: string, failure: ModelError, delivered: 'as-it-comes' | 'at-the-end'): Promise<AnswerEvent[]> {
  logger.warn('agent model call failed', { model: query.model.id, kind: failure.kind, cause: failure.failure, reason: failure.message })
  recordModelFailure(failure.failure, failure.message)
  await settleFailedAnswer(query, text, failure.message, delivered)
  return [{ type: 'error', message: failure.message, cause: failure }]
}

/** The answer of a run, for a JSON reply; throws the run's failure (a ModelError, or what kept the answer unstored). */
export async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<AgentAnswer> {
  let answer: AgentAnswer | undefined
  for await (const event of events) {
    switch (event.type) {
      case 'answer':
      case 'done':
        break
      case 'endpoint_response':
        answer = event.answer
        break
      case 'error':
        throw event.cause ?? new ModelFailed(event.message)
      default:
        unreachable(event)
    }
  }
  if (!answer) throw new ModelFailed('The model run ended without an answer')
  return answer
}
