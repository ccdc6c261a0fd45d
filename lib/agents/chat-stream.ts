import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { combineHeaders, getRuntimeEnvironmentUserAgent, VERSION, withUserAgentSuffix } from '@ai-sdk/provider-utils'
import { JSONParseError, TypeValidationError } from 'ai'
import { EventStreamData } from '@/lib/http/event-stream'
import { isRedirect, outboundRequest, wholeResponse, type OutboundAnswer } from '@/lib/http/outbound-fetch'
import { brokenBodyError, failedAnswerError, streamFrameError, unreachableError, type CallOrigin } from './chat-stream-errors'
import type { PartStream, ProviderPart } from './model-stream'

// A streamed chat completion read without web streams (issue 28). @ai-sdk/openai's chat model reads its answer
// through seven of them (the body, a wrapper, a text decoder, the event parser, the JSON parser, a tee, its own
// transform), each piece of the answer going through every one; on Node 20 each stage costs promises, and each promise
// the hooks of every AsyncLocalStorage enabled: ~4.2 ms of CPU a call against ~0.8 ms read here (a scratch benchmark:
// 960 calls, 64 at a time, four stores enabled), a fifth of a question's CPU. The request is still the SDK's own (its
// chat model builds the body, the headers and the URL), the errors are made as it makes them
// (chat-stream-errors.ts), and tests/agents-chat-stream.test.ts holds both to the SDK's doStream on the same calls.

/** The parts of @ai-sdk/openai's chat model this reads: how it builds a request (not its public interface). */
interface SdkChatModel {
  provider: string
  modelId: string
  getArgs(options: LanguageModelV3CallOptions): Promise<{ args: Record<string, unknown> }>
  config: { url(options: { path: string; modelId: string }): string; headers(): Record<string, string | undefined> }
}

/** The model as @ai-sdk/openai's chat model, when it is one whose request this knows how to build; else null. */
export function sdkChatModel(model: LanguageModelV3): SdkChatModel | null {
  const candidate = model as unknown as Partial<SdkChatModel>
  const known = candidate.provider === 'openai.chat' && typeof candidate.getArgs === 'function' && typeof candidate.config?.url === 'function' && typeof candidate.config.headers === 'function'
  return known ? (candidate as SdkChatModel) : null
}

export interface ChatRequest {
  url: string
  headers: Record<string, string | undefined>
  body: Record<string, unknown>
}

/** The request the chat model's doStream sends: its arguments, streamed with usage, its headers and user agent. */
export async function chatRequest(model: SdkChatModel, options: LanguageModelV3CallOptions): Promise<ChatRequest> {
  const { args } = await model.getArgs(options)
  const headers = { 'Content-Type': 'application/json', ...combineHeaders(model.config.headers(), options.headers) }
  return {
    url: model.config.url({ path: '/chat/completions', modelId: model.modelId }),
    headers: withUserAgentSuffix(headers, `ai-sdk/provider-utils/${VERSION}`, getRuntimeEnvironmentUserAgent()),
    body: { ...args, stream: true, stream_options: { include_usage: true } },
  }
}

type ErrorFrame = { error: { message: string; code?: string | number; type?: string } }
type Delta = { content?: string | null; refusal?: string | null }
type UsageFields = { prompt_tokens?: number | null; completion_tokens?: number | null }
type AnswerFrame = { choices: Array<{ delta?: Delta | null }>; usage?: UsageFields | null }
type Frame = ErrorFrame | AnswerFrame

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const optionalText = (value: unknown) => value === undefined || value === null || typeof value === 'string'

function isErrorFrame(value: Record<string, unknown>): value is ErrorFrame {
  return isRecord(value.error) && typeof value.error.message === 'string'
}

/** The fields read of a chunk have the types OpenAI's schema gives them (the SDK validates the whole chunk). */
function isAnswerFrame(value: Record<string, unknown>): value is AnswerFrame {
  if (!Array.isArray(value.choices) || !(value.usage === undefined || value.usage === null || isRecord(value.usage))) return false
  return value.choices.every(choice => isRecord(choice) && (choice.delta === undefined || choice.delta === null || (isRecord(choice.delta) && optionalText(choice.delta.content) && optionalText(choice.delta.refusal))))
}

/** One event's data as a frame; what is not JSON, or not a chunk of a chat completion, is the error the SDK gives. */
function frameOf(data: string): Frame {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch (cause) {
    throw new JSONParseError({ text: data, cause })
  }
  if (isRecord(value) && (isErrorFrame(value) || isAnswerFrame(value))) return value
  throw new TypeValidationError({ value, cause: new Error('not a chunk of a streamed chat completion') })
}

/** The text pieces of a frame: its content and a refusal's words, as the SDK gives them. */
function textOf(frame: AnswerFrame): string {
  const delta = frame.choices[0]?.delta
  return (delta?.content ?? '') + (delta?.refusal ?? '')
}

/**
 * The answer's text pieces, then its usage, from its events to the end of its body (read whole, so that its
 * connection is kept alive). One generator from the socket's text to the parts: each piece is one step.
 */
async function* answerParts(answer: OutboundAnswer, origin: CallOrigin): AsyncGenerator<ProviderPart, void, undefined> {
  const events = new EventStreamData()
  answer.body.setEncoding('utf8')
  const texts = (answer.body as AsyncIterable<string>)[Symbol.asyncIterator]()
  let usage: UsageFields | null | undefined
  try {
    for (;;) {
      let step: IteratorResult<string>
      try {
        step = await texts.next()
      } catch (error) {
        throw brokenBodyError(error, answer.status, origin)
      }
      for (const data of step.done ? events.end() : events.push(step.value)) {
        if (data === '[DONE]') continue
        const frame = frameOf(data)
        if ('error' in frame) throw streamFrameError(frame, origin)
        if (frame.usage) usage = frame.usage
        const text = textOf(frame)
        if (text) yield { type: 'text', text }
      }
      if (step.done) break
    }
  } finally {
    await texts.return?.()
  }
  yield { type: 'usage', tokens: { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 } }
}

/** `parts` with its first step, already taken, given again first. */
function replaying(first: IteratorResult<ProviderPart, void>, parts: AsyncGenerator<ProviderPart, void, undefined>): PartStream {
  let pending: IteratorResult<ProviderPart, void> | null = first
  return {
    [Symbol.asyncIterator]() {
      return this
    },
    next() {
      const step = pending
      pending = null
      return step ? Promise.resolve(step) : parts.next()
    },
    return: () => parts.return(),
  }
}

/**
 * The streamed answer's parts; resolves once its first piece came (or it ended), so that what fails before (the
 * server unreachable, an error status or frame) throws here, as the SDK's doStream does, and can be retried. Null for
 * an answer this does not read (a redirect), which the SDK's own call then follows.
 */
export async function openChatStream(model: SdkChatModel, options: LanguageModelV3CallOptions): Promise<PartStream | null> {
  const request = await chatRequest(model, options)
  const origin: CallOrigin = { url: request.url, requestBodyValues: request.body }
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined))
  let answer: OutboundAnswer
  try {
    answer = await outboundRequest(new URL(request.url), { method: 'POST', headers, body: JSON.stringify(request.body), signal: options.abortSignal })
  } catch (error) {
    throw unreachableError(error, origin)
  }
  if (isRedirect(answer)) {
    answer.body.resume()
    return null
  }
  if (answer.status < 200 || answer.status > 299) {
    let response: Response
    try {
      response = await wholeResponse(answer)
    } catch (error) {
      throw brokenBodyError(error, answer.status, origin)
    }
    throw await failedAnswerError(response, origin)
  }
  const parts = answerParts(answer, origin)
  return replaying(await parts.next(), parts)
}
