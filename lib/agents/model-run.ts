import { stepCountIs, streamText, type ModelMessage } from 'ai'
import { phaseTimer, recordModelCall } from '@/lib/metrics/agents'
import { recordAnswerTiming } from '@/lib/metrics/recent-answers'
import { config } from '@/lib/config'
import type { ToolCallRecord } from '@/lib/domain/agent-tools'
import { unreachable, type AgentAnswer, type AnswerEvent, type ToolCallStart } from '@/lib/domain/answer-events'
import { ModelFailed, type ModelError } from '@/lib/domain/errors'
import { logger } from '@/lib/logger'
import { startModelDeadline, type ModelDeadline } from './model-deadline'
import { plainCall, providerParts } from './model-stream'
import { describeModelFailure } from './model-failure'
import { recordModelFailure, recordModelSuccess } from './model-health'
import type { PreparedQuery } from './prepare-query'
import { settleAnswer, settleFailedAnswer, type ModelTokens } from './query-outcome'
import { approvalNotice, recordApprovals } from './approvals'
import { startToolRun, type ToolRun } from './tools/tool-run'

// The model run of a query (spec §4.2, §6; DESIGN.md §7), streamed or not: `answer` pieces as the model writes them,
// then `endpoint_response` with the stored answer and `done`, or `error` once the failure is stored. A streaming
// query sends the events as they come; a JSON query is the same run, collected (collectAnswer). The run is stopped
// when the client goes away (clientSignal) or the model stays silent for AGENT_MODEL_TIMEOUT_SECONDS. An agent with
// tools (issue 25) runs up to AGENT_MAX_TOOL_STEPS model steps: `tool_call` and `tool_result` events between them.

type ModelPart =
  | { type: 'text'; text: string }
  | { type: 'usage'; tokens: ModelTokens }
  | { type: 'tool_call'; call: ToolCallStart }
  | { type: 'tool_result'; call: ToolCallStart; error?: unknown }
  | { type: 'awaiting_approval'; messages: ModelMessage[] }

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
  let toolRun: ToolRun | undefined
  let awaiting: ModelMessage[] | undefined
  try {
    toolRun = await startToolRun(query.tools, { organizationId: query.organizationId, agentId: query.agentId, conversationId: query.conversationId, signal: deadline.signal })
    for await (let part of modelParts(query, deadline, toolRun)) {
      if (part.type === 'usage') {
        tokens = part.tokens
        continue
      }
      if (part.type === 'tool_call') {
        yield { type: 'tool_call', call: part.call }
        continue
      }
      if (part.type === 'tool_result') {
        yield { type: 'tool_result', call: recordOf(toolRun, part) }
        continue
      }
      if (part.type === 'awaiting_approval') {
        // the visitor is told the action waits; the operator's decision continues from these messages
        awaiting = part.messages
        part = { type: 'text', text: (text ? '\n\n' : '') + approvalNotice(toolRun.pending) }
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
    await toolRun?.close()
  }
  const answerSeconds = timer.phase('answer')
  // the System page's latency (issue 27): answers only, a failure's time is the failure's (a timeout, a refusal)
  if (!failure) recordAnswerTiming(query.organizationId, answerSeconds)
  recordModelCall(query.model.id, failure ? failure.kind : 'ok', tokens)
  const toolCalls = toolRun?.calls ?? []
  if (failure) yield* await settleRunFailure(query, text, failure, delivered, toolCalls)
  else {
    recordModelSuccess()
    const settled = await settleAnswer(query, text, tokens, toolCalls)
    if (awaiting && toolRun) await recordApprovals(query, toolRun.pending, [...query.prompt.messages, ...awaiting], settled)
    yield* settled
  }
}

/** The record of a finished call; a call the SDK refused before running it (an unknown tool, bad input) is recorded here. */
function recordOf(run: ToolRun, part: Extract<ModelPart, { type: 'tool_result' }>): ToolCallRecord {
  const found = run.calls.find(c => c.id === part.call.id)
  if (found) return found
  const record: ToolCallRecord = { ...part.call, kind: 'http', ok: false, error: String((part.error as Error)?.message ?? part.error ?? 'not run'), durationMs: 0 }
  run.calls.push(record)
  return record
}

/**
 * The model's text pieces and its token usage; throws when the call fails or is stopped. A plain call reads the
 * provider's stream directly (model-stream.ts: no layer between it and the run for each piece), others streamText's.
 */
function modelParts(query: PreparedQuery, deadline: ModelDeadline, run: ToolRun): AsyncIterable<ModelPart> {
  const plain = Object.keys(run.tools).length ? null : plainCall(query.model.model, query.prompt.system, query.prompt.messages)
  return plain ? providerParts(plain, query.settings, deadline) : streamedParts(query, deadline, run)
}

async function* streamedParts(query: PreparedQuery, deadline: ModelDeadline, run: ToolRun): AsyncGenerator<ModelPart, void, undefined> {
  // a call that waits for an operator ends the run after its step (lib/agents/approvals continues it)
  const stopWhen = [stepCountIs(config().AGENT_MAX_TOOL_STEPS), () => run.pending.length > 0]
  const tools = Object.keys(run.tools).length ? { tools: run.tools, stopWhen } : {}
  const result = streamText({
    model: query.model.model,
    system: query.prompt.system,
    messages: query.prompt.messages,
    ...query.settings,
    ...tools,
    maxRetries: 1,
    abortSignal: deadline.signal,
    onError: () => {}, // errors arrive as parts of fullStream below
  })
  for await (const part of result.fullStream) {
    deadline.touch()
    if (part.type === 'text-delta' && part.text) yield { type: 'text', text: part.text }
    else if (part.type === 'tool-call') yield { type: 'tool_call', call: { id: part.toolCallId, tool: part.toolName, arguments: part.input } }
    else if (part.type === 'tool-result') yield { type: 'tool_result', call: { id: part.toolCallId, tool: part.toolName, arguments: part.input } }
    else if (part.type === 'tool-error') yield { type: 'tool_result', call: { id: part.toolCallId, tool: part.toolName, arguments: part.input }, error: part.error }
    else if (part.type === 'error') throw part.error
    else if (part.type === 'abort') throw new Error(part.reason ?? 'aborted')
    else if (part.type === 'finish') {
      yield { type: 'usage', tokens: { promptTokens: part.totalUsage.inputTokens ?? 0, completionTokens: part.totalUsage.outputTokens ?? 0 } }
    }
  }
  if (deadline.cause) throw new Error('stopped')
  if (run.pending.length) yield { type: 'awaiting_approval', messages: (await result.response).messages }
}

async function settleRunFailure(query: PreparedQuery, text: string, failure: ModelError, delivered: 'as-it-comes' | 'at-the-end', toolCalls: ToolCallRecord[]): Promise<AnswerEvent[]> {
  logger.warn('agent model call failed', { model: query.model.id, kind: failure.kind, cause: failure.failure, reason: failure.message })
  recordModelFailure(failure.failure, failure.message)
  await settleFailedAnswer({ ...query, toolCalls }, text, failure.message, delivered)
  return [{ type: 'error', message: failure.message, cause: failure }]
}

/** The answer of a run, for a JSON reply; throws the run's failure (a ModelError, or what kept the answer unstored). */
export async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<AgentAnswer> {
  let answer: AgentAnswer | undefined
  for await (const event of events) {
    switch (event.type) {
      case 'answer':
      case 'tool_call':
      case 'tool_result':
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
