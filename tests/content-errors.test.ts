// Errors in words (issue 15, defect 7): no SDK jargon such as "HTTP 200: Failed to process successful response", and
// one label for an answer that was stopped, whoever stopped it.
import { APICallError } from 'ai'
import { describe, expect, test } from 'vitest'
import { describeModelFailure } from '@/lib/agents/model-failure'
import type { ModelDeadline } from '@/lib/agents/model-deadline'
import { STOPPED_MESSAGE } from '@/lib/domain/answer-events'

const running = { cause: null } as unknown as ModelDeadline

function apiError(statusCode: number, message: string) {
  return new APICallError({ message, url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: '' })
}

describe('model failures in words', () => {
  test('a 200 that is not a chat completion says to check OPENAI_BASE_URL, without the SDK wording', () => {
    const message = describeModelFailure(apiError(200, 'Failed to process successful response'), running).message
    expect(message).not.toContain('Failed to process successful response')
    expect(message).not.toContain('HTTP 200')
    expect(message).toMatch(/^The model failed: .*OPENAI_BASE_URL/)
  })

  test('a refused key, an unknown model and an unreachable server each say what to check', () => {
    expect(describeModelFailure(apiError(401, 'Incorrect API key provided: sk-abc'), running).message).toContain('check OPENAI_API_KEY')
    expect(describeModelFailure(apiError(404, 'model "llama9" not found'), running).message).toContain('check MODEL_MAP')
    expect(describeModelFailure(new TypeError('fetch failed'), running).message).toContain('could not be reached')
  })

  test('a client that went away and a stop button share one label', () => {
    const stopped = { cause: 'client' } as unknown as ModelDeadline
    expect(describeModelFailure(new Error('aborted'), stopped).message).toBe(STOPPED_MESSAGE)
  })
})
