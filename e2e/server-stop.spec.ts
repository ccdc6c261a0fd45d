import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { createParser } from 'eventsource-parser'
import { decodeAnswerEvent, type AnswerEvent } from '../lib/domain/answer-events'
import { STOP_PORT } from '../playwright.config'
import { startFakeOpenAI } from './support/fake-openai-server.mjs'
import { OwnServer } from './support/own-server'

// A server stopped by SIGTERM (a deploy, `docker stop`, systemd) while a visitor's answer streams, over real HTTP
// against the built server as `npm start` runs it: the answer reaches the visitor whole and is stored, no new
// connection is taken meanwhile, and the process ends by itself with code 0.

const KEY = 'ads_e2e_stop_key_0123456789abcdef'
const REPLY = 'The warranty lasts two years from the date of purchase, parts and labour included: keep the receipt.'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

test.describe.configure({ timeout: 180_000 })

/** Reads a streamed answer's events; `until` resolves once an event of that type has come. */
function readEvents(body: NonNullable<Response['body']>) {
  const events: AnswerEvent[] = []
  const parser = createParser({ onEvent: sse => { const event = decodeAnswerEvent(sse); if (event) events.push(event) } })
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  const until = async (type: AnswerEvent['type'] | 'end') => {
    while (!events.some(e => e.type === type)) {
      const read = await reader.read()
      if (read.done) return
      parser.feed(read.value)
    }
  }
  return { events, until }
}

test('SIGTERM while an answer streams: the answer ends whole and is stored, then the server exits on its own', async () => {
  const fake = await startFakeOpenAI()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-stop-'))
  const server = new OwnServer(STOP_PORT, dataDir, {
    INIT_ADMIN_EMAIL: 'owner@stop.example', INIT_ADMIN_PASSWORD: 'stop-password-123', INIT_API_KEY: KEY,
    OPENAI_API_KEY: 'sk-fake', OPENAI_BASE_URL: fake.baseURL, EMBEDDINGS_DIMENSIONS: '64',
  })
  try {
    await server.start()
    const created = await fetch(`${server.url}/api/agents`, { method: 'POST', headers, body: JSON.stringify({ name: 'Stopping' }) })
    expect(created.status).toBe(201)
    const agent = await created.json()
    // pieces of 12 characters, 150 ms apart: the answer streams for about 1.3 s
    fake.setBehaviour({ reply: REPLY, delayMs: 150 })
    const res = await fetch(`${server.url}/api/agents/${agent.id}/query`, { method: 'POST', headers, body: JSON.stringify({ query: 'How long is the warranty?', streaming: true }) })
    expect(res.status).toBe(200)
    const stream = readEvents(res.body!)
    await stream.until('answer')

    const exited = server.stop('SIGTERM')
    // the server stops listening at once, while the answer goes on
    await expect.poll(() => fetch(`${server.url}/api/health`).then(() => 'answered', () => 'refused'), { timeout: 10_000 }).toBe('refused')
    await stream.until('end')
    const text = stream.events.flatMap(e => (e.type === 'answer' ? [e.text] : [])).join('')
    expect(text).toBe(REPLY)
    expect(stream.events.at(-1)?.type).toBe('done')
    const stored = stream.events.find(e => e.type === 'endpoint_response')
    expect(stored?.type === 'endpoint_response' && stored.answer.conversationId).toBeTruthy()
    expect(await exited).toBe(0)

    const conversationId = stored?.type === 'endpoint_response' ? stored.answer.conversationId : ''
    const messages = await server.withDatabase(async db =>
      (await db.query<{ role: string; text: string }>(`SELECT role::text, text FROM "Message" WHERE "conversationId" = $1 ORDER BY "createdAt"`, [conversationId])).rows)
    expect(messages.map(m => [m.role, m.text])).toEqual([['user', 'How long is the warranty?'], ['assistant', REPLY]])
  } finally {
    await server.stop('SIGKILL')
    await fake.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
