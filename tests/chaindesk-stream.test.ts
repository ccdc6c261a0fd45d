import { createParser } from 'eventsource-parser'
import { describe, expect, test } from 'vitest'
import { getPrisma } from '@/lib/db/client'
import { answerEventDecoder, answerStreamEncoder, type AnswerEvent } from '@/lib/domain/answer-events'
import { createAgentVia, parseSse, queryAgentVia, useFakeModel } from './helpers/agents'
import { call } from './helpers/http'
import * as agentQuery from '@/app/api/agents/[id]/query/route'
import { createTenant } from './helpers/tenants'

// The raw bytes of a streamed answer (DESIGN.md §7): the default against the SSE standard with a real parser, and
// Chaindesk's percent-encoding (for its clients, which send `channel`, and when asked) against its format.

const model = useFakeModel()

// the fake model sends pieces of 12 characters: line breaks land at the start of pieces ("\n\n" at 12, "\n" at 48)
const TRICKY = 'It is 100%  \n\nsure: "%20" is not a space, %E2 is no' + '\nescape 🎉 and \'quotes\' stay.\n\nEnd % 50'

/** The data lines of each event as sent, and the answer events a client of that encoding decodes. */
function wireOf(text: string) {
  const blocks = text.split('\n\n').filter(Boolean)
  return blocks.map(block => {
    const lines = block.split('\n')
    return { event: lines.find(l => l.startsWith('event: '))?.slice(7), data: lines.filter(l => l.startsWith('data:')) }
  })
}

async function storedAnswer(conversationId: string) {
  const prisma = await getPrisma()
  return (await prisma.message.findFirstOrThrow({ where: { conversationId, role: 'assistant' } })).text
}

describe('the default stream', () => {
  test('is exactly text/event-stream, and its answer data, read by a standard parser, is the stored answer', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: TRICKY, delayMs: 0 })

    const res = await queryAgentVia(agent.id, { query: 'Sure?', streaming: true }, tenant.headers)

    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const sse = parseSse(res.text)
    expect(sse.answer).toBe(TRICKY)
    expect(await storedAnswer(sse.endpointResponse!.conversationId)).toBe(TRICKY)
    expect(sse.endpointResponse!.answer).toBe(TRICKY)
    expect(sse.wire.at(-1)).toEqual({ event: undefined, data: '[DONE]' })
  })

  test('no event data begins with a line break, so fetch-event-source clients lose none', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: TRICKY, delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Sure?', streaming: true }, tenant.headers)
    const answers = parseSse(res.text).wire.filter(e => e.event === 'answer')
    expect(answers.length).toBeGreaterThan(3)
    for (const e of answers) expect(e.data).not.toMatch(/^[\r\n]/)
    // fetch-event-source's rule: an empty first data line is dropped; the answer survives it
    const joined = wireOf(res.text)
      .filter(e => e.event === 'answer')
      .map(e => e.data.map(l => l.slice(6)).reduce((acc, line) => (acc ? `${acc}\n${line}` : line), ''))
      .join('')
    expect(joined).toBe(TRICKY)
  })

  test('an answer never starts with a line break: leading ones are dropped from the stream and the stored text alike', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: '\n\nHello', delayMs: 0 })
    const res = await queryAgentVia(agent.id, { query: 'Hi', streaming: true }, tenant.headers)
    const sse = parseSse(res.text)
    expect(sse.answer).toBe('Hello')
    expect(await storedAnswer(sse.endpointResponse!.conversationId)).toBe('Hello')
  })

  test('the encoder moves the leading line breaks of a piece onto the end of the one before, the concatenation unchanged', () => {
    const encode = answerStreamEncoder()
    const pieces = ['One', '\n\nTwo', '\n', '\n', 'Three\n', 'Four']
    const events: AnswerEvent[] = [...pieces.map(text => ({ type: 'answer' as const, text })), { type: 'done' }]
    const wire = events.map(encode).join('')
    const seen: string[] = []
    createParser({ onEvent: e => e.event === 'answer' && seen.push(e.data) }).feed(wire)
    expect(seen).toEqual(['One\n\n', 'Two\n\n', 'Three\n', 'Four'])
    expect(seen.join('')).toBe(pieces.join(''))
  })
})

async function chaindeskQuery(agentId: string, headers: Record<string, string>, body: Record<string, unknown>, search = '') {
  return call(agentQuery.POST, `/api/agents/${agentId}/query${search}`, { method: 'POST', headers, body: { query: 'Sure?', streaming: true, ...body }, params: { id: agentId } })
}

describe("Chaindesk's stream encoding", () => {
  for (const [label, body, search] of [
    ['a request with `channel` (as its widget sends)', { channel: 'website' }, ''],
    ['a request asking for it in the body', { streamEncoding: 'chaindesk' }, ''],
    ['a request asking for it in the query string', {}, '?streamEncoding=chaindesk'],
  ] as const) {
    test(`${label} gets one percent-encoded data line per piece and raw markers`, async () => {
      const tenant = await createTenant()
      const agent = await createAgentVia(tenant)
      model.fake.setBehaviour({ reply: TRICKY, delayMs: 0 })

      const res = await chaindeskQuery(agent.id, tenant.headers, body, search)

      expect(res.headers.get('content-type')).toBe('text/event-stream')
      const wire = wireOf(res.text)
      const answers = wire.filter(e => e.event === 'answer')
      expect(answers.length).toBeGreaterThan(3)
      for (const e of [...answers, ...wire.filter(w => w.event === 'endpoint_response')]) {
        expect(e.data).toHaveLength(1)
        expect(e.data[0]).toMatch(/^data: [A-Za-z0-9\-_.!~*'()%]*$/)
      }
      // the widget's own reading: decodeURIComponent of each payload, concatenated
      expect(answers.map(e => decodeURIComponent(e.data[0].slice(6))).join('')).toBe(TRICKY)
      const response = JSON.parse(decodeURIComponent(wire.find(e => e.event === 'endpoint_response')!.data[0].slice(6)))
      expect(response.answer).toBe(TRICKY)
      expect(await storedAnswer(response.conversationId)).toBe(TRICKY)
      expect(wire.at(-1)).toEqual({ event: undefined, data: ['data: [DONE]'] })
    })
  }

  test('asking for the default explicitly wins over `channel`', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: '100% sure', delayMs: 0 })
    const res = await chaindeskQuery(agent.id, tenant.headers, { channel: 'dashboard', streamEncoding: 'sse' })
    expect(parseSse(res.text).answer).toBe('100% sure')
  })

  test('a failure mid-stream is a raw [ERROR] marker', async () => {
    const tenant = await createTenant()
    const agent = await createAgentVia(tenant)
    model.fake.setBehaviour({ reply: 'a long answer that is cut in the middle', delayMs: 0, mode: 'drop-mid-stream' })
    const res = await chaindeskQuery(agent.id, tenant.headers, { channel: 'website' })
    expect(wireOf(res.text).at(-1)!.data[0]).toMatch(/^data: \[ERROR\]\S/)
  })

  test("the domain's decoder reads Chaindesk's encoding back", () => {
    const encode = answerStreamEncoder('chaindesk')
    const decode = answerEventDecoder('chaindesk')
    const events: AnswerEvent[] = [{ type: 'answer', text: '100%\n🎉' }, { type: 'done' }]
    const decoded: (AnswerEvent | null)[] = []
    createParser({ onEvent: e => decoded.push(decode(e)) }).feed(events.map(encode).join(''))
    expect(decoded).toEqual(events)
  })
})
