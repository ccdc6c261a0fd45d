import type net from 'node:net'

// HTTP/1.1 read off a raw socket: a test that must write what a client library would not (the rest of a body after
// an early answer, a second request on the same connection) reads the answers with this.

export interface RawResponse {
  status: number
  head: string
  body: string
}

/** The responses read from a raw socket, one by one, and the socket's errors. */
export function responses(socket: net.Socket) {
  let buffer = Buffer.alloc(0)
  const errors: string[] = []
  let wake = () => {}
  socket.on('data', data => {
    buffer = Buffer.concat([buffer, data])
    wake()
  })
  socket.on('error', error => {
    errors.push((error as NodeJS.ErrnoException).code ?? error.message)
    wake()
  })
  /** the body after the head at `start`: its Content-Length, or its chunks; null while incomplete */
  const bodyAt = (head: string, start: number): { body: Buffer; end: number } | null => {
    const length = /content-length: *(\d+)/i.exec(head)
    if (length) return buffer.length < start + Number(length[1]) ? null : { body: buffer.subarray(start, start + Number(length[1])), end: start + Number(length[1]) }
    const chunks: Buffer[] = []
    for (let at = start; ; ) {
      const line = buffer.indexOf('\r\n', at)
      if (line === -1) return null
      const size = parseInt(buffer.subarray(at, line).toString(), 16)
      if (buffer.length < line + 2 + size + 2) return null
      if (size === 0) return { body: Buffer.concat(chunks), end: line + 4 }
      chunks.push(buffer.subarray(line + 2, line + 2 + size))
      at = line + 2 + size + 2
    }
  }
  const parsed = () => {
    const end = buffer.indexOf('\r\n\r\n')
    if (end === -1) return null
    const head = buffer.subarray(0, end).toString()
    const body = bodyAt(head, end + 4)
    if (!body) return null
    buffer = buffer.subarray(body.end)
    return { status: Number(head.split(' ')[1]), head, body: body.body.toString() }
  }
  return {
    errors,
    async next(): Promise<RawResponse> {
      for (;;) {
        const response = parsed()
        if (response) return response
        if (errors.length) throw new Error(`the connection failed: ${errors.join(', ')}`)
        await new Promise<void>(resolve => (wake = resolve))
      }
    },
  }
}
