import { generateText, type LanguageModel, type ModelMessage } from 'ai'
import { config } from '@/lib/config'
import { logger } from '@/lib/logger'
import { plainCall } from './model-stream'
import type { HistoryMessage } from './prompt'

// Standalone questions (issue 13): before retrieval, a follow-up ("and how much does it cost?") is rewritten by the
// agent's model, with the conversation's recent messages, into a query that stands alone ("How much does the Zephyr
// kettle cost?"). A short, bounded call: a few messages of history, a one-line answer, REWRITE_TIMEOUT_MS at most; on
// any failure the question is searched as typed.

/** The rewrite's instruction (e2e/support/fake-openai-server.mjs recognises a rewrite by "standalone search query"). */
export const REWRITE_INSTRUCTION = [
  'You turn the last question of a conversation into a standalone search query for a document search.',
  'Rewrite the follow-up question so that it is understood without the conversation: replace pronouns and references',
  'with what they refer to, keep the language of the question, and keep names, numbers and terms as written.',
  'If it already stands alone, repeat it unchanged. Do not answer it.',
  'Reply with the standalone search query only, on one line.',
].join(' ')

// The history sent: the latest messages, each cut, so the call stays small whatever the conversation
const HISTORY_MESSAGES = 6
const MESSAGE_CHARS = 600
const MAX_QUERY_CHARS = 1000

export interface StandaloneQuestion {
  query: string
  /** False when the question was searched as typed (no history, or the rewrite failed). */
  rewritten: boolean
}

/** The conversation and its follow-up, as the rewrite's one user message. */
export function rewriteRequest(question: string, history: HistoryMessage[]): string {
  const lines = history
    .slice(-HISTORY_MESSAGES)
    .map(m => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.text.replace(/\s+/g, ' ').trim().slice(0, MESSAGE_CHARS)}`)
  return `Conversation:\n${lines.join('\n')}\n\nFollow-up question: ${question}`
}

/** The model's reply as a query: its first non-empty line, without quotes or a label; null when nothing is left. */
export function cleanRewrite(reply: string): string | null {
  const line = reply.split(/\r?\n/).map(l => l.trim()).find(Boolean) ?? ''
  const query = line
    .replace(/^(standalone (search )?(query|question)|search query|query)\s*:\s*/i, '')
    .replace(/^["'“«]+|["'”»]+$/g, '')
    .trim()
  return query ? query.slice(0, MAX_QUERY_CHARS) : null
}

export async function standaloneQuestion(input: {
  model: LanguageModel
  question: string
  history: HistoryMessage[]
  signal?: AbortSignal
}): Promise<StandaloneQuestion> {
  if (input.history.length === 0) return { query: input.question, rewritten: false }
  const timeoutMs = config().REWRITE_TIMEOUT_MS
  const deadline = AbortSignal.timeout(timeoutMs)
  try {
    const messages: ModelMessage[] = [{ role: 'user', content: rewriteRequest(input.question, input.history) }]
    const query = cleanRewrite(await rewriteReply(input.model, messages, input.signal ? AbortSignal.any([input.signal, deadline]) : deadline))
    if (!query) throw new Error('the model answered an empty query')
    return { query, rewritten: true }
  } catch (error) {
    if (input.signal?.aborted) throw error
    const reason = deadline.aborted ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error)
    logger.warn('question rewrite failed: searching the question as typed', { reason })
    return { query: input.question, rewritten: false }
  }
}

/**
 * The model's reply to the rewrite: through the provider's own call (doGenerate) when the model is a provider's object,
 * as an answer without tools is (lib/agents/model-stream.ts): generateText's standardisation, step and telemetry
 * layers cost ~0.5–1 ms of CPU a call (a scratch micro-benchmark against the fake model: 0.96–1.33 against
 * 0.49–0.59 ms), on the path of every follow-up. No retry either way: a failed rewrite searches the question as typed.
 */
async function rewriteReply(model: LanguageModel, messages: ModelMessage[], abortSignal: AbortSignal): Promise<string> {
  const settings = { temperature: 0, maxOutputTokens: 128 }
  const call = plainCall(model, REWRITE_INSTRUCTION, messages)
  if (!call) return (await generateText({ model, system: REWRITE_INSTRUCTION, messages, ...settings, maxRetries: 0, abortSignal })).text
  const { content } = await call.model.doGenerate({ prompt: call.prompt, ...settings, abortSignal })
  return content.map(part => (part.type === 'text' ? part.text : '')).join('')
}
