// An agent's answer read in the browser as it streams (spec §6, DESIGN.md §7): `answer` pieces, `endpoint_response`
// with the whole answer, then `done`; `error` when the model fails mid-stream. The events are decoded by the domain's
// decoder (lib/domain/answer-events.ts). Errors known before the stream opens (400, 402, 404, 429, 503) are JSON with
// a status.

import { createParser } from 'eventsource-parser'
import { decodeAnswerEvent, unreachable, type AgentAnswer, type AnswerEvent, type AnswerSource } from '@/lib/domain/answer-events'
import { postAgentQuery } from './chat-api'

export type { AgentAnswer, AnswerSource }

export interface AgentQueryInput {
  query: string
  conversationId?: string
  visitorId?: string
  /** A visitor identity signed by the embedding site's server (issue 14). */
  visitorSignature?: string
  visitorExpires?: number
  modelName?: string
  temperature?: number
}

/** A failure the user should read: what happened, in words. */
export class ChatError extends Error {
  readonly status: number
  readonly code: string | undefined
  constructor(message: string, status = 0, code?: string) {
    super(message)
    this.name = 'ChatError'
    this.status = status
    this.code = code
  }
}

/** The words shown for an error answered before the stream opened. */
export function describeQueryError(status: number, message: string | undefined, retryAfter: string | null): string {
  const detail = message ? ` ${message.replace(/\.?$/, '.')}` : ''
  switch (status) {
    case 402:
      return `The usage limit is reached: no more questions can be answered this month.${detail}`
    case 429: {
      const seconds = Number(retryAfter)
      const wait = Number.isFinite(seconds) && seconds > 0 ? ` Try again in ${Math.ceil(seconds)} second${Math.ceil(seconds) === 1 ? '' : 's'}.` : ' Try again in a moment.'
      return `Too many questions in a short time.${wait}`
    }
    case 503:
      return `No model is available to answer right now.${detail}`
    case 502:
    case 504:
      return `The model did not answer.${detail}`
    case 401:
    case 404:
      return 'This agent is not available.'
    default:
      return message || `The question could not be sent (status ${status}).`
  }
}

async function errorFromResponse(res: Response): Promise<ChatError> {
  let body: { error?: { code?: string; message?: string; details?: unknown } } | undefined
  try {
    body = await res.json()
  } catch {}
  let message = body?.error?.message
  // a 400 names the field at fault in its details
  const issue = Array.isArray(body?.error?.details) ? (body.error.details[0] as { path?: unknown; message?: unknown }) : undefined
  if (issue && typeof issue.message === 'string') message = `${message ?? 'Invalid request'}: ${issue.path ? `${String(issue.path)}: ` : ''}${issue.message}`
  return new ChatError(describeQueryError(res.status, message, res.headers.get('retry-after')), res.status, body?.error?.code)
}

/** What the events of one stream came to. */
interface StreamState {
  answer: AgentAnswer | null
  done: boolean
  failure: string | null
  unreadable: boolean
}

function apply(state: StreamState, event: AnswerEvent, onAnswer: (piece: string) => void) {
  switch (event.type) {
    case 'answer':
      onAnswer(event.text)
      break
    case 'endpoint_response':
      state.answer = event.answer
      break
    case 'tool_call':
    case 'tool_result':
      // the tool calls are shown from the whole answer (its toolCalls), once it is stored
      break
    case 'done':
      state.done = true
      break
    case 'error':
      state.failure = event.message || 'The answer failed'
      break
    default:
      unreachable(event)
  }
}

/** Reads the stream's events into `state` until it ends, fails, or `signal` aborts. */
async function readEvents(body: NonNullable<Response['body']>, state: StreamState, onAnswer: (piece: string) => void, signal?: AbortSignal) {
  const parser = createParser({
    onEvent(sse) {
      if (state.done || state.failure !== null) return
      try {
        const event = decodeAnswerEvent(sse)
        if (event) apply(state, event, onAnswer) // an event this client does not know is skipped
      } catch {
        state.unreadable = true
      }
    },
  })
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  // stopping cancels the body, which tells the server to abandon the model call
  const onAbort = () => void reader.cancel().catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    while (!state.done && state.failure === null && !signal?.aborted) {
      const { value, done: ended } = await reader.read()
      if (ended) break
      parser.feed(value)
    }
  } catch {
    if (!signal?.aborted) throw new ChatError('The connection was lost before the answer was complete.', 0, 'stream_interrupted')
  } finally {
    signal?.removeEventListener('abort', onAbort)
    reader.cancel().catch(() => {})
  }
}

/**
 * Streams an agent's answer: `onAnswer` gets each piece as it arrives; resolves with the whole answer after the
 * stream's end. Rejects with ChatError (in words), or with the AbortError when `signal` aborts.
 */
export async function streamAgentQuery(
  agentId: string,
  input: AgentQueryInput,
  { onAnswer, signal, credentials = 'same-origin' }: { onAnswer: (piece: string) => void; signal?: AbortSignal; credentials?: RequestCredentials },
): Promise<AgentAnswer> {
  let res: Response
  try {
    res = await postAgentQuery(agentId, input, { signal, credentials })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ChatError('Could not reach the server. Check your connection and try again.', 0, 'network_error')
  }
  if (!res.ok) throw await errorFromResponse(res)

  // a server may answer JSON even to a streaming request: take it whole
  if (!res.headers.get('content-type')?.includes('text/event-stream') || !res.body) {
    const answer = (await res.json()) as AgentAnswer
    if (answer.answer) onAnswer(answer.answer)
    return answer
  }

  const state: StreamState = { answer: null, done: false, failure: null, unreadable: false }
  await readEvents(res.body, state, onAnswer, signal)
  if (signal?.aborted) throw new DOMException('The answer was stopped', 'AbortError')
  if (state.failure !== null) throw new ChatError(`The answer stopped: ${state.failure}`, 0, 'stream_error')
  if (!state.done) throw new ChatError('The answer was cut off before it was complete.', 0, 'stream_interrupted')
  if (!state.answer || state.unreadable) {
    throw new ChatError('The answer arrived, but its details (sources, conversation) could not be read.', 0, 'bad_response')
  }
  return state.answer
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: string })?.name === 'AbortError'
}
