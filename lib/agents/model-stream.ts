import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { APICallError, type LanguageModel, type ModelMessage } from 'ai'
import { openChatStream, sdkChatModel } from './chat-stream'
import type { ModelDeadline } from './model-deadline'
import type { ModelTokens } from './query-outcome'

// An agent without tools (most of them) has its model called through the provider's own streaming call (the `ai`
// SDK's LanguageModelV3.doStream, which streamText itself calls): the same request and the same parts, without
// streamText's pipeline around it (a tee, step and tool handling, telemetry), which each piece of an answer went
// through in about eight web streams — ~15 % of a streamed question's CPU (docs/benchmarks.md). An agent with tools,
// a prompt that is not plain text, or a model object of another kind still goes through streamText (model-run.ts).
// @ai-sdk/openai's chat model (every model of lib/agents/model-catalogue.ts) has its answer read by chat-stream.ts,
// which sends the request that doStream would and reads it without doStream's web streams.

/** What a model run reads of the model: text pieces, then its token usage. */
export type ProviderPart = { type: 'text'; text: string } | { type: 'usage'; tokens: ModelTokens }

/** The first call waits this long before its one retry, as streamText's own retry does (2 s, then doubling). */
const RETRY_DELAY_MS = 2_000

export interface PlainCall {
  model: LanguageModelV3
  prompt: LanguageModelV3Prompt
}

function plainText(content: ModelMessage['content']): string | null {
  if (typeof content === 'string') return content
  if (!content.every(part => part.type === 'text')) return null
  return content.map(part => (part as { text: string }).text).join('')
}

/** The call as the provider reads it, when the model is a provider's object and every message plain text; else null. */
export function plainCall(model: LanguageModel, system: string, messages: ModelMessage[]): PlainCall | null {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return null
  const prompt: LanguageModelV3Prompt = [{ role: 'system', content: system }]
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'assistant') return null
    const text = plainText(message.content)
    if (text === null) return null
    prompt.push({ role: message.role, content: [{ type: 'text', text }] })
  }
  return { model, prompt }
}

type Settings = { temperature?: number; topP?: number; maxOutputTokens?: number; presencePenalty?: number; frequencyPenalty?: number }

/** The parts of one call, read one step at a time; `return` ends the call early. */
export interface PartStream extends AsyncIterable<ProviderPart, void, undefined> {
  next(): Promise<IteratorResult<ProviderPart, void>>
  return(): Promise<IteratorResult<ProviderPart, void>>
}

/** The SDK's stream of a call as the parts a run reads (a model that is not @ai-sdk/openai's chat model, a redirect). */
async function* sdkParts(stream: ReadableStream<LanguageModelV3StreamPart>): AsyncGenerator<ProviderPart, void, undefined> {
  const reader = stream.getReader()
  let done = false
  try {
    for (;;) {
      const step = await reader.read()
      if (step.done) {
        done = true
        return
      }
      const part = step.value
      if (part.type === 'text-delta') {
        if (part.delta) yield { type: 'text', text: part.delta }
      } else if (part.type === 'finish') {
        yield { type: 'usage', tokens: { promptTokens: part.usage.inputTokens.total ?? 0, completionTokens: part.usage.outputTokens.total ?? 0 } }
      } else if (part.type === 'error') {
        throw part.error
      }
    }
  } finally {
    // a run stopped early (the client gone, an error) lets the provider close its request
    if (!done) await reader.cancel().catch(() => {})
  }
}

async function open(call: PlainCall, options: LanguageModelV3CallOptions): Promise<PartStream> {
  const chat = sdkChatModel(call.model)
  const read = chat ? await openChatStream(chat, options) : null
  return read ?? sdkParts((await call.model.doStream(options)).stream)
}

async function opened(call: PlainCall, settings: Settings, signal: AbortSignal): Promise<PartStream> {
  const options = { prompt: call.prompt, ...settings, abortSignal: signal }
  try {
    return await open(call, options)
  } catch (error) {
    // one retry of a call that failed before answering (a refused connection, a 429 or 5xx), as maxRetries: 1 did
    if (!APICallError.isInstance(error) || !error.isRetryable || signal.aborted) throw error
    await new Promise(resolve => setTimeout(resolve, RETRY_DELAY_MS))
    signal.throwIfAborted()
    return await open(call, options)
  }
}

/**
 * The model's text pieces and its usage, each piece restarting the deadline's silence timer; throws when the call
 * fails, the stream reports an error, or the deadline stopped it.
 */
export async function* providerParts(call: PlainCall, settings: Settings, deadline: Pick<ModelDeadline, 'signal' | 'touch' | 'cause'>): AsyncGenerator<ProviderPart, void, undefined> {
  const parts = await opened(call, settings, deadline.signal)
  try {
    for (;;) {
      const step = await parts.next()
      deadline.touch()
      if (step.done) {
        if (deadline.cause) throw new Error('stopped')
        return
      }
      yield step.value
    }
  } finally {
    await parts.return()
  }
}
