// The worker shares the web server's event loop: long work on a large file (chunking, reading an HTML page of
// megabytes) lets requests in every so often instead of holding every visitor for seconds (issue 28).

/**
 * The longest the worker's CPU-bound work holds the event loop before letting requests in. A request needs several
 * turns (its arrival, each statement's answer), each of which may wait for a slice: with 20 ms the median API answer
 * while an 8 MB text was chunked was 65–106 ms, with 5 ms 28–30 ms, the chunking no slower (session 28).
 */
export const SLICE_MS = 5

/** Resolves once the event loop has run what was waiting (timers, sockets, other requests). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise(resolve => setImmediate(resolve))
}

/** A long computation's turns: `if (slices.over) await slices.next()` in its loop keeps each turn under SLICE_MS. */
export class TimeSlices {
  private start = performance.now()

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether this turn has had its time. */
  get over(): boolean {
    return performance.now() - this.start >= this.sliceMs
  }

  /** Lets the event loop in, then starts the next turn. */
  async next(): Promise<void> {
    await yieldToEventLoop()
    this.start = performance.now()
  }
}
