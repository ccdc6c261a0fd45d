import { config } from '@/lib/config'
import { ApiError } from '@/lib/http/errors'
import { recordOverloadRefusal } from '@/lib/metrics/agents'

// Issue 28: questions in progress in this process, at most AGENT_MAX_IN_FLIGHT. Past it a question is refused at
// once with 503 and Retry-After rather than queued without bound: under a burst, the questions admitted keep their
// latency and the others learn when to come back, instead of every visitor waiting behind an ever longer pile.

/** 503 with Retry-After: this process has as many questions in progress as it takes. */
export class Overloaded extends ApiError {
  constructor(inFlight: number, retryAfterSeconds = 1) {
    super(503, 'overloaded', `The service is answering ${inFlight} questions already; retry in ${retryAfterSeconds} s`, { retryAfter: retryAfterSeconds }, {
      'Retry-After': String(retryAfterSeconds),
    })
  }
}

// One count a process, on globalThis: Next loads this module once for its instrumentation and once for the routes
// (as lib/db/client.ts's database), and a stopping server waits on the routes' questions (lib/server-start.ts)
const perProcess = globalThis as unknown as { __questionsInFlight?: number }

/** Questions in progress now (for the System page, a stopping server and tests). */
export function questionsInFlight(): number {
  return perProcess.__questionsInFlight ?? 0
}

/**
 * Takes a place for one question, or throws Overloaded. The returned release gives it back; it is idempotent, so the
 * end of a stream and its cancellation may both call it.
 */
export function admitQuestion(): () => void {
  const limit = config().AGENT_MAX_IN_FLIGHT
  const inFlight = questionsInFlight()
  if (inFlight >= limit) {
    recordOverloadRefusal()
    throw new Overloaded(inFlight)
  }
  perProcess.__questionsInFlight = inFlight + 1
  let released = false
  return () => {
    if (released) return
    released = true
    perProcess.__questionsInFlight = questionsInFlight() - 1
  }
}

/**
 * The events of a streamed answer, its place released when the stream ends, fails or its reader stops early. A plain
 * iterator rather than a generator: each piece of an answer passes every layer between the model and the socket.
 */
export function releasingAtEnd<T>(events: AsyncIterable<T>, release: () => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const inner = events[Symbol.asyncIterator]()
      const failed = (error: unknown): never => {
        release()
        throw error
      }
      return {
        next: () =>
          inner.next().then(step => {
            if (step.done) release()
            return step
          }, failed),
        return: value => {
          release()
          return inner.return ? inner.return(value) : Promise.resolve({ done: true as const, value })
        },
      }
    },
  }
}
