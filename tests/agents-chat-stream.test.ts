import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openChatStream, sdkChatModel } from '@/lib/agents/chat-stream'
import type { ProviderPart } from '@/lib/agents/model-stream'
import { EventStreamData } from '@/lib/http/event-stream'
import { outboundFetch } from '@/lib/http/outbound-fetch'

// A streamed answer is read by lib/agents/chat-stream.ts, not by @ai-sdk/openai's doStream: each call here goes both
// ways against the same server, and the request sent, the text and usage read, and the error thrown must be the same.

type Answer = { status?: number; headers?: Record<string, string>; pieces: Array<string | Buffer>; cutOff?: boolean }
let answer: Answer = { pieces: [] }
const received: Array<{ headers: http.IncomingHttpHeaders; body: unknown }> = []
let server: http.Server
let baseURL = ''

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = ''
    req.on('data', chunk => (text += chunk))
    req.on('end', async () => {
      received.push({ headers: req.headers, body: JSON.parse(text) })
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', ...answer.headers })
      for (const piece of answer.pieces) {
        res.write(piece)
        await new Promise(resolve => setTimeout(resolve, 2))
      }
      if (answer.cutOff) res.socket?.destroy()
      else res.end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise(resolve => server.close(resolve)))

const chunk = (delta: object, extra: object = {}) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`
const usage = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`

function model(id = 'gpt-4o-mini') {
  return createOpenAI({ apiKey: 'sk-test', baseURL, organization: 'org-1', fetch: outboundFetch }).chat(id)
}

const callOptions = (extra: Partial<LanguageModelV3CallOptions> = {}): LanguageModelV3CallOptions => ({
  prompt: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'Warranty?' }] }],
  ...extra,
})

/** What the SDK's doStream gives, as the parts a run reads; the error it throws or streams. */
async function viaSdk(id: string, options: LanguageModelV3CallOptions) {
  const parts: ProviderPart[] = []
  try {
    const reader = (await model(id).doStream(options)).stream.getReader()
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      const part: LanguageModelV3StreamPart = step.value
      if (part.type === 'text-delta' && part.delta) parts.push({ type: 'text', text: part.delta })
      if (part.type === 'finish') parts.push({ type: 'usage', tokens: { promptTokens: part.usage.inputTokens.total ?? 0, completionTokens: part.usage.outputTokens.total ?? 0 } })
      if (part.type === 'error') throw part.error
    }
    return { parts }
  } catch (error) {
    return { parts, error }
  }
}

async function viaChatStream(id: string, options: LanguageModelV3CallOptions) {
  const parts: ProviderPart[] = []
  try {
    const stream = await openChatStream(sdkChatModel(model(id))!, options)
    for await (const part of stream!) parts.push(part)
    return { parts }
  } catch (error) {
    return { parts, error }
  }
}

/** Both ways, one after the other; the requests the server received, in the same order. */
async function both(options = callOptions(), id = 'gpt-4o-mini') {
  received.length = 0
  const sdk = await viaSdk(id, options)
  const ours = await viaChatStream(id, options)
  return { sdk, ours, requests: received.slice() }
}

const errorFields = (error: unknown) => {
  const e = error as { name?: string; message?: string; statusCode?: number; isRetryable?: boolean }
  return { name: e?.name, message: e?.message, statusCode: e?.statusCode, isRetryable: e?.isRetryable }
}

describe('a streamed chat completion read without the SDK’s web streams', () => {
  test('sends the request doStream sends: body, headers, settings, a reasoning model’s own rules', async () => {
    answer = { pieces: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Two years' }), usage, 'data: [DONE]\n\n'] }
    const settings = { temperature: 0.3, topP: 0.9, maxOutputTokens: 200, presencePenalty: 0.1, frequencyPenalty: 0.2 }
    for (const [id, options] of [['gpt-4o-mini', callOptions(settings)], ['o3-mini', callOptions(settings)], ['gpt-4o-mini', callOptions()]] as const) {
      const { requests } = await both(options, id)
      expect(requests).toHaveLength(2)
      expect(requests[1].body).toEqual(requests[0].body)
      const { 'user-agent': agent, ...headers } = requests[1].headers
      const { 'user-agent': sdkAgent, ...sdkHeaders } = requests[0].headers
      expect(headers).toEqual(sdkHeaders)
      expect(agent).toBe(sdkAgent)
    }
    expect(received[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    expect(received[0].headers).toMatchObject({ authorization: 'Bearer sk-test', 'openai-organization': 'org-1', 'content-type': 'application/json' })
  })

  test('reads the same text and usage, whatever the pieces the events arrive in', async () => {
    const events = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Zwei Jahre, ' }), chunk({ content: 'ab Kaufdatum – ✓.' }), chunk({ refusal: ' (no more)' }), chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), usage, 'data: [DONE]\n\n']
    const whole = events.join('')
    const bytes = Buffer.from(whole)
    const cuts: Array<Array<string | Buffer>> = [
      events, // an event a write
      [whole], // all at once
      whole.split(/(?<=\n)/), // a line a write
      Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7)), // 7 bytes a write, characters cut
      [': keep-alive\r\n\r\n' + whole.replace(/\n/g, '\r\n')], // CRLF lines and a comment
      whole.replace(/\n/g, '\r\n').split(/(?<=\r)/), // each CR of a CRLF last in its write
      events.slice(0, -1).concat(usage.replace(/\n\n$/, '')), // no [DONE], the last event without its blank line
    ]
    for (const pieces of cuts) {
      answer = { pieces }
      const { sdk, ours } = await both()
      expect(ours).toEqual(sdk)
      expect(ours.parts.filter(p => p.type === 'text').map(p => (p as { text: string }).text).join('')).toBe('Zwei Jahre, ab Kaufdatum – ✓. (no more)')
      expect(ours.parts.at(-1)).toEqual({ type: 'usage', tokens: { promptTokens: 11, completionTokens: 7 } })
    }
  })

  test('fails as doStream fails: an error status, an error or a stranger before any text, a refused connection', async () => {
    const json = { 'content-type': 'application/json' }
    const cases: Array<[string, Answer, 'all' | 'name']> = [
      ['a 429 in OpenAI’s error shape', { status: 429, headers: json, pieces: [JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } })] }, 'all'],
      ['a 500 that is not JSON', { status: 500, headers: { 'content-type': 'text/html' }, pieces: ['<html>Bad gateway</html>'] }, 'all'],
      ['a 400 a proxy wrote in pieces', { status: 400, headers: json, pieces: ['{"error":{"message":"context_length', '_exceeded","type":"invalid_request_error"}}'] }, 'all'],
      ['an error frame before any text', { pieces: [chunk({ role: 'assistant', content: '' }), 'data: {"error":{"message":"The server is overloaded","type":"server_error","code":"overloaded"}}\n\n'] }, 'all'],
      ['an error frame of an exhausted quota', { pieces: ['data: {"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}\n\n'] }, 'all'],
      ['a frame that is no chunk', { pieces: ['data: {"not":"a chunk"}\n\n'] }, 'name'],
      ['a frame that is not JSON', { pieces: ['data: <html>\n\n'] }, 'name'],
    ]
    for (const [what, given, compared] of cases) {
      answer = given
      const { sdk, ours } = await both()
      expect(ours.error, what).toBeDefined()
      const expected = compared === 'all' ? errorFields(sdk.error) : { name: errorFields(sdk.error).name }
      expect(compared === 'all' ? errorFields(ours.error) : { name: errorFields(ours.error).name }, what).toEqual(expected)
      expect(ours.parts, what).toEqual(sdk.parts)
    }
    const closed = http.createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    const refused = baseURL
    baseURL = `http://127.0.0.1:${port}/v1`
    try {
      const { sdk, ours } = await both()
      expect(errorFields(ours.error)).toEqual(errorFields(sdk.error))
      expect(errorFields(ours.error)).toMatchObject({ name: 'AI_APICallError', isRetryable: true, message: expect.stringContaining('Cannot connect to API') })
    } finally {
      baseURL = refused
    }
  })

  test('a connection cut after some text, and an error frame after some text, end the answer with an error', async () => {
    answer = { pieces: [chunk({ content: 'Two' }), chunk({ content: ' years' })], cutOff: true }
    const cut = await both()
    expect(cut.ours.parts).toEqual([{ type: 'text', text: 'Two' }, { type: 'text', text: ' years' }])
    expect(errorFields(cut.ours.error)).toEqual(errorFields(cut.sdk.error))
    // the SDK streams the frame's bare object (which model-failure.ts could only call "[object Object]"); here it is an
    // APICallError with the status its code stands for, as the same frame before any text is
    answer = { pieces: [chunk({ content: 'Two' }), 'data: {"error":{"message":"The server is overloaded","type":"server_error"}}\n\n'] }
    const frame = await both()
    expect(frame.ours.parts).toEqual([{ type: 'text', text: 'Two' }])
    expect(frame.sdk.error).toEqual({ message: 'The server is overloaded', type: 'server_error' })
    expect(errorFields(frame.ours.error)).toEqual({ name: 'AI_APICallError', message: 'The server is overloaded', statusCode: 500, isRetryable: true })
  })
})

describe('the data of a server-sent event stream', () => {
  test('joins data lines, skips comments and other fields, and waits for a line’s end', () => {
    const events = new EventStreamData()
    expect(events.push('\uFEFFdata: a\ndata:b\nevent: x\nid: 1\n: note\n')).toEqual([])
    expect(events.push('\ndata: {"c"')).toEqual(['a\nb'])
    expect(events.push(':1}\r')).toEqual([])
    expect(events.push('\n\r\ndata\n\ndata: last')).toEqual(['{"c":1}'])
    expect(events.end()).toEqual(['last'])
  })
})
