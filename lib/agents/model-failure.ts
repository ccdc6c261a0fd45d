import { APICallError, RetryError } from 'ai'
import { config } from '@/lib/config'
import { ApiError } from '@/lib/http/errors'
import type { ModelDeadline } from './model-deadline'

/** A failed model call, as the caller is told: a message without secrets, and the HTTP status it maps to. */
export interface ModelFailure {
  message: string
  /** 504 when the model timed out, 502 when it failed, 499 (logged only) when the client went away. */
  status: 499 | 502 | 503 | 504
}

export function describeModelFailure(error: unknown, deadline: ModelDeadline): ModelFailure {
  if (deadline.cause === 'timeout') {
    return { status: 504, message: `The model did not answer within ${config().AGENT_MODEL_TIMEOUT_SECONDS} s` }
  }
  if (deadline.cause === 'client') return { status: 499, message: 'The client disconnected before the answer was complete' }
  if (error instanceof ApiError) return { status: 503, message: error.message }
  const last = RetryError.isInstance(error) ? error.lastError : error
  let detail = last instanceof Error ? last.message : String(last)
  if (APICallError.isInstance(last) && last.statusCode) detail = `HTTP ${last.statusCode}: ${detail}`
  return { status: 502, message: `The model failed: ${detail.replace(/\s+/g, ' ').slice(0, 300)}` }
}
