import { APICallError, RetryError } from 'ai'
import { config } from '@/lib/config'
import { STOPPED_MESSAGE } from '@/lib/domain/answer-events'
import { ModelError, ModelFailed, ModelTimeout, type ModelFailureCause } from '@/lib/domain/errors'
import type { ModelDeadline } from './model-deadline'

// A failed model call, told truthfully (issue 22): its cause is typed (timeout, refused, HTTP status, dropped stream,
// unparsable) and worded for the operator, who can act on it (the log, the playground, the inbox, /api/health). A
// visitor of a public agent, who can do nothing about OPENAI_BASE_URL, reads the plain apology instead.

/** What a visitor (a caller without a key of the agent's organization) reads when the model fails. */
export const VISITOR_APOLOGY = 'Sorry, the assistant cannot answer right now. Please try again in a moment.'

/** A failed model call as the operator is told: a domain error whose message holds no secret and no SDK jargon. */
export function describeModelFailure(error: unknown, deadline: ModelDeadline, partial = false): ModelError {
  if (deadline.cause === 'timeout') return new ModelTimeout(`The model did not answer within ${config().AGENT_MODEL_TIMEOUT_SECONDS} s`, { type: 'timeout' })
  // the one label of a stopped answer, whoever stopped it (the person, or a client that went away)
  if (deadline.cause === 'client') return new ModelFailed(STOPPED_MESSAGE, { type: 'stopped' })
  if (error instanceof ModelError) return error
  const last = RetryError.isInstance(error) ? error.lastError : error
  const cause = classifyModelFailure(last, partial)
  return new ModelFailed(`The model failed: ${operatorReason(cause, last)}`, cause)
}

const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|fetch failed|connect|socket hang up/i
const BROKEN_OFF = /terminated|other side closed|premature|aborted|ECONNRESET|socket|UND_ERR/i
const NOT_PARSABLE = /JSON|parse|type validation|invalid|unexpected/i

/**
 * The cause of a failure: an HTTP status when the server answered one (also a 2xx whose body the SDK could not read:
 * unparsable); a connection that broke after the answer began (`partial`) or during its body: dropped stream; one that
 * never opened: refused.
 */
export function classifyModelFailure(error: unknown, partial = false): ModelFailureCause {
  const names = errorChain(error)
  const text = names.join(' ')
  if (APICallError.isInstance(error) && error.statusCode) {
    if (error.statusCode >= 300) return { type: 'http_status', status: error.statusCode }
    return BROKEN_OFF.test(text) && !NOT_PARSABLE.test(text) ? { type: 'dropped_stream' } : { type: 'unparsable' }
  }
  if (/AI_(JSONParseError|TypeValidationError|InvalidResponseDataError|NoContentGeneratedError)/.test(text)) return { type: 'unparsable' }
  if (partial && BROKEN_OFF.test(text)) return { type: 'dropped_stream' }
  if (UNREACHABLE.test(text)) return partial ? { type: 'dropped_stream' } : { type: 'refused' }
  if (BROKEN_OFF.test(text)) return { type: 'dropped_stream' }
  return { type: 'other' }
}

/** The names, codes and messages of an error and of its causes, for matching. */
function errorChain(error: unknown): string[] {
  const out: string[] = []
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      out.push(current.name, current.message, String((current as { code?: unknown }).code ?? ''))
      current = current.cause
    } else {
      out.push(String(current))
      break
    }
  }
  return out
}

/** What went wrong, in words a person setting up the service can act on. */
function operatorReason(cause: ModelFailureCause, error: unknown): string {
  const raw = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim()
  switch (cause.type) {
    case 'refused':
      return 'the model server could not be reached (connection refused or no such host); check OPENAI_BASE_URL and that the server is running'
    case 'dropped_stream':
      return 'the connection to the model server broke off before the answer was complete; try again'
    case 'unparsable':
      return 'the model server answered something that is not an OpenAI-compatible chat completion; check OPENAI_BASE_URL'
    case 'http_status':
      return httpReason(cause.status, raw)
    default:
      return raw.slice(0, 300) || 'an unknown error'
  }
}

function httpReason(status: number, raw: string): string {
  if (status === 401 || status === 403) return `the model server refused the API key (HTTP ${status}); check OPENAI_API_KEY`
  if (status === 404) return `the model or endpoint was not found (HTTP 404); check MODEL_MAP and OPENAI_BASE_URL${detail(raw)}`
  if (status === 429) return 'the model server is rate limiting or out of quota (HTTP 429); try again later'
  if (status >= 500) return `the model server had an error (HTTP ${status}); try again${detail(raw)}`
  return `the model server refused the request (HTTP ${status})${detail(raw)}`
}

function detail(raw: string): string {
  return raw ? `: ${raw.slice(0, 200)}` : ''
}
