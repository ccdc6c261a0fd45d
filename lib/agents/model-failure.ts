import { APICallError, RetryError } from 'ai'
import { config } from '@/lib/config'
import { STOPPED_MESSAGE } from '@/lib/domain/answer-events'
import { ModelError, ModelFailed, ModelTimeout } from '@/lib/domain/errors'
import type { ModelDeadline } from './model-deadline'

/** A failed model call as the caller is told: a domain error whose message holds no secret and no SDK jargon. */
export function describeModelFailure(error: unknown, deadline: ModelDeadline): ModelError {
  if (deadline.cause === 'timeout') return new ModelTimeout(`The model did not answer within ${config().AGENT_MODEL_TIMEOUT_SECONDS} s`)
  // the one label of a stopped answer, whoever stopped it (the person, or a client that went away)
  if (deadline.cause === 'client') return new ModelFailed(STOPPED_MESSAGE)
  if (error instanceof ModelError) return error
  const last = RetryError.isInstance(error) ? error.lastError : error
  return new ModelFailed(`The model failed: ${readableReason(last)}`)
}

/** What went wrong, in words a person setting up the service can act on. */
function readableReason(error: unknown): string {
  const raw = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim()
  if (!APICallError.isInstance(error) || !error.statusCode) {
    if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed|socket|network/i.test(raw)) {
      return 'the model server could not be reached; check OPENAI_BASE_URL and that the server is running'
    }
    return raw.slice(0, 300) || 'an unknown error'
  }
  const status = error.statusCode
  // a 2xx whose body is not a chat completion (the SDK says "Failed to process successful response")
  if (status < 300) return 'the model server answered something that is not an OpenAI-compatible chat completion; check OPENAI_BASE_URL'
  if (status === 401 || status === 403) return `the model server refused the API key (HTTP ${status}); check OPENAI_API_KEY`
  if (status === 404) return `the model or endpoint was not found (HTTP 404); check MODEL_MAP and OPENAI_BASE_URL${detail(raw)}`
  if (status === 429) return 'the model server is rate limiting or out of quota (HTTP 429); try again later'
  if (status >= 500) return `the model server had an error (HTTP ${status}); try again${detail(raw)}`
  return `the model server refused the request (HTTP ${status})${detail(raw)}`
}

function detail(raw: string): string {
  return raw ? `: ${raw.slice(0, 200)}` : ''
}
