// Server-sent events (https://html.spec.whatwg.org/multipage/server-sent-events.html), as the agent query streams
// them (DESIGN.md §7). A field value cannot hold a line break, so data containing newlines is sent as several
// `data:` lines, which a conforming client joins back with "\n".

export interface SseEvent {
  /** The event name; omitted for the default ("message") event, as the [DONE] and [ERROR] markers are sent. */
  event?: string
  data: string
}

const LINE_BREAK = /\r\n|\r|\n/

export function encodeSseEvent({ event, data }: SseEvent): string {
  let out = ''
  if (event !== undefined) {
    if (LINE_BREAK.test(event)) throw new Error('An SSE event name cannot contain a line break')
    out += `event: ${event}\n`
  }
  // "data: " then the line: the parser removes exactly one space after the colon, so leading spaces survive
  for (const line of data.split(LINE_BREAK)) out += `data: ${line}\n`
  return `${out}\n`
}

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform also keeps compression middleware (Next's `compress`) from buffering the events
  'Cache-Control': 'no-cache, no-transform',
  // proxies such as nginx buffer responses unless told otherwise, which would hold the pieces back
  'X-Accel-Buffering': 'no',
} as const
