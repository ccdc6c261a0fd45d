import { encodeAnswerEvent, type AnswerEvent } from '@/lib/domain/answer-events'
import { logger } from '@/lib/logger'

// The event stream of a streaming agent query (spec §6, DESIGN.md §7). The events and their encoding are the
// domain's (lib/domain/answer-events.ts); this is the HTTP framing.

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform also keeps compression middleware (Next's `compress`) from buffering the events
  'Cache-Control': 'no-cache, no-transform',
  // proxies such as nginx buffer responses unless told otherwise, which would hold the pieces back
  'X-Accel-Buffering': 'no',
} as const

/**
 * The events as an event-stream response, sent as they come. The events are read to their end even when the client
 * has gone (so that what a run stores on its way out is stored); `onCancel` runs when the client cancels the body,
 * and should stop what produces the events.
 */
export function sseResponse(events: AsyncIterable<AnswerEvent>, onCancel?: () => void): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: AnswerEvent) => {
        try {
          controller.enqueue(encoder.encode(encodeAnswerEvent(event)))
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
      onCancel?.()
    },
  })
  return new Response(body, { headers: SSE_HEADERS })
}
