import { createJsonErrorResponseHandler, isAbortError, zodSchema } from '@ai-sdk/provider-utils'
import { APICallError } from 'ai'
import { z } from 'zod'

// The errors of a streamed chat completion read by chat-stream.ts, made as @ai-sdk/openai's chat model makes them
// (its openaiFailedResponseHandler, createOpenAIStreamError, and provider-utils' postToApi), so that what
// lib/agents/model-failure.ts classifies, and what model-stream.ts retries, is the same either way.

/** Where the call went and what it sent, which each error carries. */
export interface CallOrigin {
  url: string
  requestBodyValues: unknown
}

const openaiErrorData = z.object({
  error: z.object({ message: z.string(), type: z.string().nullish(), param: z.any().nullish(), code: z.union([z.string(), z.number()]).nullish() }),
})

const failedResponse = createJsonErrorResponseHandler({ errorSchema: zodSchema(openaiErrorData), errorToMessage: data => data.error.message })

/** A non-2xx answer, as postToApi throws it: the server's message when it sent OpenAI's error shape. */
export async function failedAnswerError(response: Response, origin: CallOrigin): Promise<unknown> {
  try {
    return (await failedResponse({ response, ...origin })).value
  } catch (error) {
    if (isAbortError(error) || APICallError.isInstance(error)) return error
    return new APICallError({ message: 'Failed to process error response', cause: error, statusCode: response.status, ...origin })
  }
}

/** The request could not be sent or answered (fetch's TypeError with the cause): retried once, as postToApi's. */
export function unreachableError(error: unknown, origin: CallOrigin): unknown {
  const cause = (error as { cause?: unknown })?.cause
  if (!(error instanceof TypeError) || !(cause instanceof Error)) return error
  return new APICallError({ message: `Cannot connect to API: ${cause.message}`, cause, isRetryable: true, ...origin })
}

/** The answer's body broke off (a transport failure): retried when nothing was read yet, as the SDK's stream does. */
export function brokenBodyError(error: unknown, statusCode: number, origin: CallOrigin): unknown {
  if (isAbortError(error)) return error
  return new APICallError({ message: 'Failed to process successful response', cause: error, statusCode, isRetryable: true, ...origin })
}

type StreamErrorFields = { message: string; code?: string | number; type?: string }

/** An `error` frame inside the stream (what vLLM and others send on a failure after the 200). */
export function streamFrameError(frame: { error: StreamErrorFields }, origin: CallOrigin): APICallError {
  const { error } = frame
  const statusCode = statusOf(error)
  const retryable = error.code !== 'insufficient_quota' && error.type !== 'insufficient_quota' && (statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500)
  return new APICallError({ message: error.message, statusCode, responseBody: JSON.stringify(frame), data: frame, isRetryable: retryable, ...origin })
}

const isHttpError = (value: number) => Number.isInteger(value) && value >= 400 && value <= 599

/** The HTTP status a stream's error stands for: its code when it is one, else from the words of its code and type. */
function statusOf(error: StreamErrorFields): number {
  const numeric = typeof error.code === 'number' ? error.code : typeof error.code === 'string' && /^\d{3}$/.test(error.code) ? Number(error.code) : NaN
  if (isHttpError(numeric)) return numeric
  const words = [error.code, error.type].filter(v => typeof v === 'string' || typeof v === 'number').join(' ').toLowerCase()
  const rules: Array<[string[], number]> = [
    [['insufficient_quota', 'rate_limit'], 429],
    [['authentication'], 401],
    [['permission'], 403],
    [['not_found'], 404],
    [['invalid', 'bad_request', 'context_length'], 400],
    [['overload'], 503],
    [['timeout'], 504],
  ]
  return rules.find(([terms]) => terms.some(term => words.includes(term)))?.[1] ?? 500
}
