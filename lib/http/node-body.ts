import type { IncomingMessage } from 'node:http'

// A Node request's body as the Web stream a route handler reads (lib/api/direct-dispatch.ts). Node's own
// `Readable.toWeb` cancels by destroying the request, hence its socket: a handler that refuses a body part-way (a 413
// past the size limit: lib/http/body.ts, lib/http/multipart.ts) then closes a connection the client is still sending
// on, and the kernel answers the client's next bytes with a reset that can overtake the 413 already written, so the
// client reads ECONNRESET instead of the error. Here a cancel stops handing bytes to the handler and reads the rest
// of the body to drop it, as nginx's lingering close does: the client reads the answer, and the connection stays
// usable. A client that keeps sending for longer than LINGER_MS is cut off.

export const LINGER_MS = 30_000

/** Reads and drops the rest of `req`'s body; destroys the connection if it has not ended within `lingerMs`. */
function drain(req: IncomingMessage, lingerMs: number): void {
  if (req.complete || req.destroyed) return
  const cutOff = setTimeout(() => req.destroy(), lingerMs)
  cutOff.unref()
  const stop = () => clearTimeout(cutOff)
  req.once('end', stop).once('close', stop)
  req.on('data', () => {})
  req.resume()
}

/**
 * `req`'s body, read only when the handler reads it (a body never read is left to Node, which drops it once the
 * response is sent), with backpressure: the request is paused while the stream's reader is behind.
 */
export function requestBody(req: IncomingMessage, lingerMs = LINGER_MS): ReadableStream<Uint8Array> {
  let started = false
  let cancelled = false
  const listeners: Array<[string, (...args: any[]) => void]> = []
  const listen = (event: string, listener: (...args: any[]) => void) => {
    listeners.push([event, listener])
    req.on(event, listener)
  }
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (started) return void req.resume()
        started = true
        listen('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) req.pause()
        })
        listen('end', () => controller.close())
        listen('error', error => controller.error(error))
        // a client gone before the end: the reader sees an error, never a short body taken as whole
        listen('close', () => {
          if (!req.complete && !cancelled) controller.error(new Error('The client closed the connection before the end of the body'))
        })
      },
      cancel() {
        cancelled = true
        for (const [event, listener] of listeners) req.off(event, listener)
        drain(req, lingerMs)
      },
    },
    // nothing read ahead: pull() runs only when the handler reads, so a body never read is never started
    { highWaterMark: 0 },
  )
}
