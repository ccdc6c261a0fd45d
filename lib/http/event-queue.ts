// The encoded events of one streamed answer between the run that produces them and the one reader that sends them
// (lib/http/sse.ts): produced as they come, whether or not they are read yet; read once, by the Response's body or by
// lib/http/direct-send.ts. A chunk waiting costs an array slot, a reader waiting one promise.

export type QueueReader = 'body' | 'direct'

export class EventQueue {
  private chunks: Uint8Array[] = []
  private waiter: ((chunk: Uint8Array | null) => void) | null = null
  private ended = false
  private cancelled = false
  private reader: QueueReader | null = null
  private pausing: (() => void) | null = null

  constructor(private readonly onCancel?: () => void) {}

  /** Whether `reader` may read this queue: the first to ask does, the other never. */
  claim(reader: QueueReader): boolean {
    this.reader ??= reader
    return this.reader === reader
  }

  push(chunk: Uint8Array): void {
    if (this.cancelled) return
    const waiter = this.waiter
    this.waiter = null
    if (waiter) waiter(chunk)
    else this.chunks.push(chunk)
  }

  /** No more chunks. */
  end(): void {
    this.ended = true
    this.release(null)
  }

  /** Resolves after `ms`, or as soon as the queue ends or is cancelled: a reader's pause between two writes. */
  pause(ms: number): Promise<void> {
    if (this.ended || this.cancelled) return Promise.resolve()
    return new Promise(resolve => {
      const timer = setTimeout(() => this.pausing?.(), ms)
      this.pausing = () => {
        clearTimeout(timer)
        this.pausing = null
        resolve()
      }
    })
  }

  /** A chunk already there; null once the queue is over (ended and read, or cancelled); undefined to wait. */
  take(): Uint8Array | null | undefined {
    if (this.chunks.length) return this.chunks.shift()!
    return this.ended || this.cancelled ? null : undefined
  }

  /** The next chunk, or null when there will be none. */
  wait(): Promise<Uint8Array | null> {
    const now = this.take()
    if (now !== undefined) return Promise.resolve(now)
    return new Promise(resolve => (this.waiter = resolve))
  }

  /** The reader is gone: what comes is dropped, and the producer is told to stop. */
  cancel(): void {
    if (this.cancelled) return
    this.cancelled = true
    this.chunks = []
    this.release(null)
    this.onCancel?.()
  }

  private release(value: null): void {
    this.pausing?.()
    const waiter = this.waiter
    this.waiter = null
    waiter?.(value)
  }
}
