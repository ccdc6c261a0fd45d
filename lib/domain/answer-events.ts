// The answer of an agent query (spec §4.2, §6; DESIGN.md §7) and the events a streamed one is made of. One
// vocabulary for the server that writes the stream and for every client that reads it (the dashboard's chat, the
// tests, the benchmark): an event is spelled on the wire here and nowhere else.
import { z } from 'zod'
import { ToolCallRecord } from './agent-tools'

/** A source as stored with an answer and returned to callers: the spec's fragment fields. */
export const AnswerSource = z.strictObject({
  text: z.string(),
  score: z.number(),
  source: z.string(),
  datasource_id: z.string(),
  datasource_name: z.string(),
})
export type AnswerSource = z.infer<typeof AnswerSource>

/** The non-streaming answer; a stream's `endpoint_response` carries the same object. */
export const AgentAnswer = z
  .strictObject({
    answer: z.string(),
    conversationId: z.string(),
    visitorId: z.string(),
    sources: z.array(AnswerSource),
    messageId: z.string(),
    toolCalls: z.array(ToolCallRecord).optional().describe("The agent's tool calls for this answer (issue 25), when it made any"),
  })
  .meta({ id: 'AgentAnswer' })
export type AgentAnswer = z.infer<typeof AgentAnswer>

/** How a streamed answer reads on the wire (the OpenAPI document says it). */
export const ANSWER_STREAM_DESCRIPTION = [
  'With `streaming: true`: `Content-Type: text/event-stream` exactly. `event: answer` events carry pieces of the answer',
  '(concatenated, they are the answer), then `event: endpoint_response` carries the JSON of the whole answer, then',
  '`data: [DONE]`. A failure after the stream opened is `data: [ERROR]<message>` and ends the stream.',
  '',
  'Encodings: by default (`sse`) the data is plain text, a piece with line breaks is several `data:` lines (joined',
  'with "\\n" as the SSE standard says), and no event data begins with a line break. The `chaindesk` encoding,',
  "Chaindesk's own: each answer and endpoint_response payload percent-encoded (encodeURIComponent) on one `data:` line,",
  "the markers raw. It is served when the body carries `channel` (Chaindesk's widget and dashboard send it), or when",
  'asked with the body field `streamEncoding` or the query parameter `?streamEncoding=` (which win).',
  '',
  'An agent with tools: in the default encoding, `event: tool_call` (JSON: id, tool, arguments) when the model calls one',
  'and `event: tool_result` (JSON: the ToolCall record, with its result or error and duration) when it answers; the',
  "`chaindesk` encoding leaves them out (Chaindesk's clients know only its own events).",
].join('\n')

/**
 * The one label of an answer that ended before it was complete because it was stopped: by the person (the stop
 * button) or by a client that went away. Clients show this, not a second wording.
 */
export const STOPPED_MESSAGE = 'Stopped before the answer was complete'

export type AnswerEvent =
  /** A piece of the answer's text; the pieces concatenate to the answer. */
  | { type: 'answer'; text: string }
  /** The model called one of the agent's tools (issue 25); not sent in Chaindesk's encoding. */
  | { type: 'tool_call'; call: ToolCallStart }
  /** The tool answered, or failed (the model was told the error); not sent in Chaindesk's encoding. */
  | { type: 'tool_result'; call: ToolCallRecord }
  /** The whole answer, once it is stored. */
  | { type: 'endpoint_response'; answer: AgentAnswer }
  /** The end of a stream that answered. */
  | { type: 'done' }
  /**
   * The end of a stream that failed. `cause` is the server's own account of the failure (a ModelTimeout, a
   * ModelFailed, a storage error): it is not sent, so a decoded event has none.
   */
  | { type: 'error'; message: string; cause?: Error }

/** A tool call as it starts: which tool, with what. */
export interface ToolCallStart {
  id: string
  tool: string
  arguments: unknown
}

/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEvent {
  /** The event name; omitted for the default ("message") event, as the [DONE] and [ERROR] markers are sent. */
  event?: string
  data: string
}

const LINE_BREAK = /\r\n|\r|\n/

/**
 * The event's lines. A field value cannot hold a line break, so data with line breaks is sent as several `data:`
 * lines, which a conforming client joins back with "\n".
 */
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

const DONE = '[DONE]'
const ERROR = '[ERROR]'

/** The default branch of an exhaustive switch over events: a member left out is a compile error there. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled answer event: ${JSON.stringify(value)}`)
}

/** The event as sent: named events for the answer and the response, data markers for the end. */
function toSseEvent(event: AnswerEvent): SseEvent {
  switch (event.type) {
    case 'answer':
      return { event: 'answer', data: event.text }
    case 'endpoint_response':
      return { event: 'endpoint_response', data: JSON.stringify(event.answer) }
    case 'tool_call':
    case 'tool_result':
      return { event: event.type, data: JSON.stringify(event.call) }
    case 'done':
      return { data: DONE }
    case 'error':
      return { data: `${ERROR} ${event.message}` }
    default:
      return unreachable(event)
  }
}

/**
 * How the data of a stream is written (DESIGN.md §7). `sse`, the default: plain text as the spec reads, a piece with
 * line breaks as several `data:` lines. `chaindesk`: what Chaindesk's own clients (its widget, its dashboard) decode,
 * each `answer` and `endpoint_response` payload percent-encoded with encodeURIComponent on one `data:` line; the
 * `[DONE]` and `[ERROR]` markers raw.
 */
export const ANSWER_ENCODINGS = ['sse', 'chaindesk'] as const
export type AnswerEncoding = (typeof ANSWER_ENCODINGS)[number]

export function encodeAnswerEvent(event: AnswerEvent, encoding: AnswerEncoding = 'sse'): string {
  const sse = toSseEvent(event)
  if (encoding === 'chaindesk') {
    if (event.type === 'tool_call' || event.type === 'tool_result') return ''
    if (event.type === 'error') return encodeSseEvent({ data: `${ERROR}${event.message.replace(LINE_BREAKS, ' ')}` })
    if (sse.event !== undefined) return encodeSseEvent({ event: sse.event, data: encodeURIComponent(sse.data) })
  }
  return encodeSseEvent(sse)
}

const LINE_BREAKS = /\r\n|\r|\n/g
const LEADING_LINE_BREAKS = /^(?:\r\n|\r|\n)+/

/**
 * A stream's encoder. Pieces are sent as whole characters: a piece that ends in the first half of a surrogate pair (a
 * model's piece may split an emoji) keeps it for the next piece, as neither UTF-8 nor encodeURIComponent can write
 * half a character. In the `sse` encoding no event's data may begin with a line break: clients built on
 * `fetch-event-source` (Chaindesk's widget, many others) drop a first `data:` line that is empty. So each `answer`
 * piece is held until the next one, whose leading line breaks are moved onto its end; the concatenation is the same.
 * (A model run never starts an answer with a line break: see lib/agents/model-run.ts.)
 */
export function answerStreamEncoder(encoding: AnswerEncoding = 'sse'): (event: AnswerEvent) => string {
  const write = encoding === 'chaindesk' ? (event: AnswerEvent) => encodeAnswerEvent(event, encoding) : lineBreakSafeEncoder()
  let half = '' // the first half of a surrogate pair, waiting for its second
  return event => {
    if (event.type !== 'answer') {
      const rest = half ? write({ type: 'answer', text: half.toWellFormed() }) : ''
      half = ''
      return rest + write(event)
    }
    let text = half + event.text
    half = ''
    if (HIGH_SURROGATE_AT_END.test(text)) {
      half = text.slice(-1)
      text = text.slice(0, -1)
    }
    return text ? write({ type: 'answer', text: text.toWellFormed() }) : ''
  }
}

const HIGH_SURROGATE_AT_END = /[\uD800-\uDBFF]$/

function lineBreakSafeEncoder(): (event: AnswerEvent) => string {
  let held: string | undefined // the piece not yet sent
  return event => {
    if (event.type !== 'answer') {
      const out = held ? encodeAnswerEvent({ type: 'answer', text: held }) : ''
      held = undefined
      return out + encodeAnswerEvent(event)
    }
    if (held === undefined) {
      held = event.text
      return ''
    }
    const breaks = LEADING_LINE_BREAKS.exec(event.text)?.[0] ?? ''
    const rest = event.text.slice(breaks.length)
    held += breaks
    if (!rest) return ''
    const out = encodeAnswerEvent({ type: 'answer', text: held })
    held = rest
    return out
  }
}

type NamedEvent = Exclude<AnswerEvent, { type: 'done' | 'error' }>

// How the data of each named event is read back; the compiler asks for an entry for every named member of the union
const READ: { [T in NamedEvent['type']]: (data: string) => Extract<AnswerEvent, { type: T }> } = {
  answer: text => ({ type: 'answer', text }),
  // throws a SyntaxError when the data is not JSON
  endpoint_response: data => ({ type: 'endpoint_response', answer: JSON.parse(data) as AgentAnswer }),
  tool_call: data => ({ type: 'tool_call', call: JSON.parse(data) as ToolCallStart }),
  tool_result: data => ({ type: 'tool_result', call: JSON.parse(data) as ToolCallRecord }),
}

const isNamed = (name: string): name is NamedEvent['type'] => Object.hasOwn(READ, name)

/**
 * The answer event an SSE event stands for, or null for one this client does not know (a newer server's), which
 * the client then ignores. Throws a SyntaxError for an `endpoint_response` whose data is not JSON.
 */
export function decodeAnswerEvent({ event, data }: SseEvent): AnswerEvent | null {
  if (event === undefined || event === '' || event === 'message') {
    if (data === DONE) return { type: 'done' }
    if (data.startsWith(ERROR)) return { type: 'error', message: data.slice(ERROR.length).trim() }
    return null
  }
  return isNamed(event) ? READ[event](data) : null
}

/** The decoder of a stream in the given encoding; a `chaindesk` payload that is not percent-encoded throws a URIError. */
export function answerEventDecoder(encoding: AnswerEncoding): (sse: SseEvent) => AnswerEvent | null {
  if (encoding === 'sse') return sse => decodeAnswerEvent(sse)
  return ({ event, data }) => decodeAnswerEvent({ event, data: event && isNamed(event) ? decodeURIComponent(data) : data })
}
