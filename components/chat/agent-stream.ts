// POST /api/agents/{id}/query with `streaming: true`, read in the browser (spec §6, DESIGN.md §7): `event: answer`
// pieces, `event: endpoint_response` with the whole answer as JSON, then `data: [DONE]`; `data: [ERROR] …` when the
// model fails mid-stream. Errors known before the stream opens (400, 402, 404, 429, 503) are JSON with a status.

import { createParser } from 'eventsource-parser'
import { ApiError } from '@/components/api-client'
// type-only: erased from the browser bundle, so none of the server's modules come with it
import type { AnswerSource } from '@/lib/agents/conversations'

export type { AnswerSource }

export interface AgentAnswer {
  answer: string
  conversationId: string
  visitorId: string
  sources: AnswerSource[]
  messageId?: string
}

export interface AgentQueryInput {
  query: string
  conversationId?: string
  visitorId?: string
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

/**
 * Streams an agent's answer: `onAnswer` gets each piece as it arrives; resolves with the whole answer after
 * `[DONE]`. Rejects with ChatError (in words), or with the AbortError when `signal` aborts.
 */
export async function streamAgentQuery(
  agentId: string,
  input: AgentQueryInput,
  { onAnswer, signal, credentials = 'same-origin' }: { onAnswer: (piece: string) => void; signal?: AbortSignal; credentials?: RequestCredentials },
): Promise<AgentAnswer> {
  let res: Response
  try {
    res = await fetch(`/api/agents/${encodeURIComponent(agentId)}/query`, {
      method: 'POST',
      credentials,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ...input, streaming: true }),
      signal,
    })
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

  let endpointResponse = ''
  let done = false
  let failure: string | null = null
  const parser = createParser({
    onEvent(event) {
      if (done || failure !== null) return
      if (event.data === '[DONE]') {
        done = true
      } else if (event.data.startsWith('[ERROR]')) {
        failure = event.data.slice('[ERROR]'.length).trim() || 'The answer failed'
      } else if (event.event === 'answer') {
        onAnswer(event.data)
      } else if (event.event === 'endpoint_response') {
        endpointResponse += event.data
      }
    },
  })

  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  // stopping cancels the body, which tells the server to abandon the model call
  const onAbort = () => void reader.cancel().catch(() => {})
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    while (!done && failure === null && !signal?.aborted) {
      const { value, done: ended } = await reader.read()
      if (ended) break
      parser.feed(value)
    }
  } catch (error) {
    if (!signal?.aborted) throw new ChatError('The connection was lost before the answer was complete.', 0, 'stream_interrupted')
  } finally {
    signal?.removeEventListener('abort', onAbort)
    reader.cancel().catch(() => {})
  }
  if (signal?.aborted) throw new DOMException('The answer was stopped', 'AbortError')

  if (failure !== null) throw new ChatError(`The answer stopped: ${failure}`, 0, 'stream_error')
  if (!done) throw new ChatError('The answer was cut off before it was complete.', 0, 'stream_interrupted')
  try {
    return JSON.parse(endpointResponse) as AgentAnswer
  } catch {
    throw new ChatError('The answer arrived, but its details (sources, conversation) could not be read.', 0, 'bad_response')
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: string })?.name === 'AbortError'
}

export { ApiError }
