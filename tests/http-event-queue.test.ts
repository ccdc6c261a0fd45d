import { Writable } from 'node:stream'
import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { EventQueue } from '@/lib/http/event-queue'
import { sendBody } from '@/lib/http/direct-send'
import { eventQueueOf, sseResponse } from '@/lib/http/sse'
import type { AnswerEvent } from '@/lib/domain/answer-events'

// The encoded events of a streamed answer wait in a queue that one reader reads: the Response's body, or `npm start`'s
// dispatcher directly (lib/http/direct-send.ts).

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (chunk: Uint8Array | null | undefined) => (chunk ? new TextDecoder().decode(chunk) : chunk)

describe('the event queue of a streamed answer', () => {
  test('chunks pushed before anyone reads are kept in order; a waiting reader gets the next one; null once ended', async () => {
    const queue = new EventQueue()
    queue.push(bytes('a'))
    queue.push(bytes('b'))
    expect(text(queue.take())).toBe('a')
    expect(text(await queue.wait())).toBe('b')
    const waiting = queue.wait()
    queue.push(bytes('c'))
    expect(text(await waiting)).toBe('c')
    expect(queue.take()).toBeUndefined()
    queue.end()
    expect(await queue.wait()).toBeNull()
  })

  test('one reader only: the first to claim it', () => {
    const queue = new EventQueue()
    expect(queue.claim('direct')).toBe(true)
    expect(queue.claim('body')).toBe(false)
    expect(queue.claim('direct')).toBe(true)
  })

  test('a cancelled queue tells its producer, ends a waiting reader and drops what comes after', async () => {
    let told = 0
    const queue = new EventQueue(() => told++)
    const waiting = queue.wait()
    queue.cancel()
    queue.cancel()
    expect(told).toBe(1)
    expect(await waiting).toBeNull()
    queue.push(bytes('late'))
    expect(queue.take()).toBeNull()
  })

  test("a response whose queue the dispatcher took has an empty body; one read through its body leaves the queue to it", async () => {
    async function* events(): AsyncGenerator<AnswerEvent> {
      yield { type: 'answer', text: 'Hi' }
      yield { type: 'done' }
    }
    const taken = sseResponse(events())
    expect(eventQueueOf(taken)!.claim('direct')).toBe(true)
    expect(await taken.text()).toBe('')
    const read = sseResponse(events())
    expect(await read.text()).toBe('event: answer\ndata: Hi\n\ndata: [DONE]\n\n')
    expect(eventQueueOf(read)!.claim('direct')).toBe(false)
  })

  test('a pause ends when its time is up, or as soon as the queue ends or is cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const states = (queue: EventQueue) => {
      let over = false
      void queue.pause(50).then(() => (over = true))
      return () => over
    }
    const timed = new EventQueue()
    const timedOver = states(timed)
    await vi.advanceTimersByTimeAsync(49)
    expect(timedOver()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(timedOver()).toBe(true)
    const ended = new EventQueue()
    const endedOver = states(ended)
    ended.end()
    await Promise.resolve()
    expect(endedOver()).toBe(true)
    const cancelled = new EventQueue()
    const cancelledOver = states(cancelled)
    cancelled.cancel()
    await Promise.resolve()
    expect(cancelledOver()).toBe(true)
  })
})

describe('an answer written by the dispatcher (npm start)', () => {
  afterEach(() => void vi.useRealTimers())

  // a streamed answer whose encoded events the test pushes itself
  function answer() {
    // events that never come: the queue ends when the test ends it
    const response = sseResponse((async function* () { await new Promise(() => {}) })())
    const queue = eventQueueOf(response)!
    const settled = () => new Promise(resolve => setImmediate(resolve))
    return { response, give: async (piece: string | null) => (piece === null ? queue.end() : queue.push(bytes(piece)), await settled()) }
  }

  function socket() {
    const writes: string[] = []
    const res = new Writable({ write: (chunk, _encoding, done) => (writes.push(String(chunk)), done()) })
    Object.assign(res, { statusCode: 0, setHeader: () => {}, flushHeaders: () => {} })
    return { res: res as unknown as ServerResponse, writes }
  }

  test('the first piece goes at once; the pieces that follow within the pause go together, the last with the end', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { response, give } = answer()
    const { res, writes } = socket()
    const sent = sendBody(response, res, { extraHeaders: {}, acceptEncoding: null, gone: new AbortController().signal })
    await give('one ')
    expect(writes).toEqual(['one '])
    await give('two ')
    await give('three ')
    expect(writes).toEqual(['one '])
    await vi.advanceTimersByTimeAsync(50)
    expect(writes).toEqual(['one ', 'two three '])
    await give('four ')
    await give(null)
    await sent
    expect(writes).toEqual(['one ', 'two three ', 'four '])
  })
})
