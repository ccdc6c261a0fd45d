import { answerStreamEncoder, type AnswerEncoding, type AnswerEvent } from '@/lib/domain/answer-events'
import { logger } from '@/lib/logger'
import { EventQueue } from './event-queue'

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

const QUEUE = Symbol('the encoded events of an event-stream response')

/**
 * The events as an event-stream response, sent as they come. The events are read to their end even when the client
 * has gone (so that what a run stores on its way out is stored); `onCancel` runs when the client cancels the body,
 * and should stop what produces the events. `encoding`: see AnswerEncoding (the default is the spec's plain text).
 * The encoded events wait in an EventQueue, read either through the Response's body or, by `npm start`'s dispatcher,
 * straight from the queue (eventQueueOf): one stream less for each piece of an answer.
 */
export function sseResponse(
  events: AsyncIterable<AnswerEvent>,
  options: { onCancel?: () => void; encoding?: AnswerEncoding; headers?: HeadersInit } = {},
): Response {
  const queue = new EventQueue(options.onCancel)
  void pumpEvents(events, queue, answerStreamEncoder(options.encoding))
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = queue.claim('body') ? (queue.take() ?? (await queue.wait())) : null
        if (chunk) controller.enqueue(chunk)
        else controller.close()
      },
      cancel: () => queue.cancel(),
    },
    // pulled only when read, so that an unread body leaves the queue to the dispatcher
    { highWaterMark: 0 },
  )
  const headers = new Headers(options.headers)
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value)
  return Object.assign(new Response(body, { headers }), { [QUEUE]: queue })
}

/** The queue of an event-stream response made by sseResponse, for a writer that reads it directly. */
export function eventQueueOf(response: Response): EventQueue | undefined {
  return (response as Response & { [QUEUE]?: EventQueue })[QUEUE]
}

async function pumpEvents(events: AsyncIterable<AnswerEvent>, queue: EventQueue, encode: (event: AnswerEvent) => string): Promise<void> {
  const encoder = new TextEncoder()
  const send = (event: AnswerEvent) => {
    const text = encode(event)
    if (text) queue.push(encoder.encode(text))
  }
  try {
    for await (const event of events) send(event)
  } catch (error) {
    logger.error('an event stream failed', { error })
    send({ type: 'error', message: 'The answer failed' })
  } finally {
    queue.end()
  }
}
