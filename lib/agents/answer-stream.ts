import { streamText } from 'ai'
import { config } from '@/lib/config'
import { encodeSseEvent, SSE_HEADERS, type SseEvent } from '@/lib/http/sse'
import { logger } from '@/lib/logger'
import { recordModelTokens, releaseAgentQuery } from '@/lib/usage/agent-queries'
import { saveAnswer } from './conversations'
import { startModelDeadline } from './model-deadline'
import { describeModelFailure } from './model-failure'
import type { AgentAnswer, PreparedQuery } from './query-agent'

// The streamed answer (spec §6, DESIGN.md §7): `event: answer` pieces, `event: endpoint_response` with the JSON of
// the whole answer, then `data: [DONE]`. A failure after the stream opened is `data: [ERROR] <message>` and the end.
// A client that goes away (request aborted or response cancelled) aborts the model call.

export function streamAnswer(query: PreparedQuery, clientSignal?: AbortSignal): Response {
  const encoder = new TextEncoder()
  const deadline = startModelDeadline(clientSignal, config().AGENT_MODEL_TIMEOUT_SECONDS * 1000)

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: SseEvent) => {
        try {
          controller.enqueue(encoder.encode(encodeSseEvent(event)))
        } catch {
          // the client is gone; the model call is being aborted
        }
      }
      const finish = () => {
        deadline.dispose()
        try {
          controller.close()
        } catch {}
      }
      void relay(query, deadline, send).finally(finish)
    },
    cancel() {
      deadline.stop('client')
    },
  })
  return new Response(body, { headers: SSE_HEADERS })
}

async function relay(query: PreparedQuery, deadline: ReturnType<typeof startModelDeadline>, send: (event: SseEvent) => void) {
  let text = ''
  let usage: { promptTokens: number; completionTokens: number } | undefined
  try {
    const result = streamText({
      model: query.model.model,
      system: query.prompt.system,
      messages: query.prompt.messages,
      ...query.settings,
      maxRetries: 1,
      abortSignal: deadline.signal,
      onError: () => {}, // errors arrive as parts of fullStream below
    })
    for await (const part of result.fullStream) {
      deadline.touch()
      if (part.type === 'text-delta' && part.text) {
        text += part.text
        send({ event: 'answer', data: part.text })
      } else if (part.type === 'error') {
        throw part.error
      } else if (part.type === 'abort') {
        throw new Error(part.reason ?? 'aborted')
      } else if (part.type === 'finish') {
        usage = { promptTokens: part.totalUsage.inputTokens ?? 0, completionTokens: part.totalUsage.outputTokens ?? 0 }
      }
    }
    if (deadline.cause) throw new Error('stopped')
  } catch (error) {
    const failure = describeModelFailure(error, deadline)
    logger.warn('agent answer stream failed', { model: query.model.id, status: failure.status, reason: failure.message })
    await saveAnswer(query.conversationId, { text, sources: query.sources, error: failure.message }).catch(e =>
      logger.error('could not store a failed answer', { error: e }),
    )
    // a query the model never answered does not count
    if (!text) await releaseAgentQuery(query.reservation).catch(() => {})
    send({ data: `[ERROR] ${failure.message}` })
    return
  }
  try {
    const tokens = usage ?? { promptTokens: 0, completionTokens: 0 }
    const messageId = await saveAnswer(query.conversationId, { text, sources: query.sources, ...tokens })
    await recordModelTokens(query.reservation, tokens)
    const answer: AgentAnswer = { answer: text, conversationId: query.conversationId, visitorId: query.visitorId, sources: query.sources, messageId }
    send({ event: 'endpoint_response', data: JSON.stringify(answer) })
    send({ data: '[DONE]' })
  } catch (error) {
    logger.error('could not store an answer', { error })
    send({ data: '[ERROR] The answer could not be stored' })
  }
}
