import { APICallError, RetryError } from 'ai'
import { config } from '@/lib/config'
import { ModelError, ModelFailed, ModelTimeout } from '@/lib/domain/errors'
import type { ModelDeadline } from './model-deadline'

/** A failed model call as the caller is told: a domain error whose message holds no secret. */
export function describeModelFailure(error: unknown, deadline: ModelDeadline): ModelError {
  if (deadline.cause === 'timeout') return new ModelTimeout(`The model did not answer within ${config().AGENT_MODEL_TIMEOUT_SECONDS} s`)
  if (deadline.cause === 'client') return new ModelFailed('The client disconnected before the answer was complete')
  if (error instanceof ModelError) return error
  const last = RetryError.isInstance(error) ? error.lastError : error
  let detail = last instanceof Error ? last.message : String(last)
  if (APICallError.isInstance(last) && last.statusCode) detail = `HTTP ${last.statusCode}: ${detail}`
  return new ModelFailed(`The model failed: ${detail.replace(/\s+/g, ' ').slice(0, 300)}`)
}
