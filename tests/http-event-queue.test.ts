import { describe, expect, test } from 'vitest'
import { EventQueue } from '@/lib/http/event-queue'
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
})
