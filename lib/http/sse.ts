import { answerStreamEncoder, type AnswerEncoding, type AnswerEvent } from '@/lib/domain/answer-events'
import { logger } from '@/lib/logger'

// The event stream of a streaming agent query (spec §6, DESIGN.md §7). The events and their encoding are the
// domain's (lib/domain/answer-events.ts); this is the HTTP framing.

export const SSE_HEADERS = {
  // exactly this, no parameters: Chaindesk's widget compares the header with ===, and re-posts the question otherwise
  'Content-Type': 'text/event-stream',
  // no-transform also keeps compression middleware (Next's `compress`) from buffering the events
  'Cache-Control': 'no-cache, no-transform',
  // proxies such as nginx buffer responses unless told otherwise, which would hold the pieces back
  'X-Accel-Buffering': 'no',
} as const

/**
 * The events as an event-stream response, sent as they come. The events are read to their end even when the client
 * has gone (so that what a run stores on its way out is stored); `onCancel` runs when the client cancels the body,
 * and should stop what produces the events. `encoding`: see AnswerEncoding (the default is the spec's plain text).
 */
export function sseResponse(
  events: AsyncIterable<AnswerEvent>,
  options: { onCancel?: () => void; encoding?: AnswerEncoding; headers?: HeadersInit } = {},
): Response {
  const encoder = new TextEncoder()
  const encode = answerStreamEncoder(options.encoding)
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: AnswerEvent) => {
        try {
          const text = encode(event)
          if (text) controller.enqueue(encoder.encode(text))
        } catch {
          // the client is gone
        }
      }
      void (async () => {
        for await (const event of events) send(event)
      })()
        .catch(error => {
          logger.error('an event stream failed', { error })
          send({ type: 'error', message: 'The answer failed' })
        })
        .finally(() => {
          try {
            controller.close()
          } catch {}
        })
    },
    cancel() {
      options.onCancel?.()
    },
  })
  const headers = new Headers(options.headers)
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value)
  return new Response(body, { headers })
}
