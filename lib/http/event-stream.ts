// The data of a server-sent event stream (text/event-stream, as the WHATWG HTML standard defines it), read from text
// as it arrives: lines end with CRLF, LF or CR; a `data` field's lines join with LF; an empty line ends an event;
// comments and the other fields (event, id, retry) are not needed by a model's stream and are skipped.

/** Reads events' data from pieces of text; `push` returns the data of each event its piece completed. */
export class EventStreamData {
  private pending = ''
  private data: string[] = []
  private started = false

  push(text: string): string[] {
    if (!this.started && text) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    const out: string[] = []
    const rest = this.pending + text
    const crs = rest.includes('\r')
    let start = 0
    for (;;) {
      const end = crs ? lineEnd(rest, start) : rest.indexOf('\n', start)
      // a CR last may be the first half of a CRLF still to come: the line waits for the next piece
      if (end < 0 || (rest.charCodeAt(end) === 13 && end === rest.length - 1)) break
      this.line(rest.slice(start, end), out)
      start = rest.charCodeAt(end) === 13 && rest.charCodeAt(end + 1) === 10 ? end + 2 : end + 1
    }
    this.pending = rest.slice(start)
    return out
  }

  /** At the end of the stream: an event its server did not end with an empty line still counts. */
  end(): string[] {
    const out: string[] = []
    const last = this.pending.replace(/\r$/, '')
    if (last) this.line(last, out)
    this.pending = ''
    if (this.data.length) this.line('', out)
    return out
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      // an event whose data is empty is not dispatched (the standard's rule)
      const data = this.data.join('\n')
      if (data) out.push(data)
      this.data = []
      return
    }
    if (line.charCodeAt(0) === 58 /* : a comment */) return
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    if (field !== 'data') return
    const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
    this.data.push(value)
  }
}

function lineEnd(text: string, from: number): number {
  const lf = text.indexOf('\n', from)
  const cr = text.indexOf('\r', from)
  if (cr < 0) return lf
  if (lf < 0) return cr
  return Math.min(lf, cr)
}
