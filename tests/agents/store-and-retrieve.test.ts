import { describe, expect, test } from 'vitest'
import type { OpenedConversation } from '@/lib/agents/conversations'
import { storeAndRetrieve } from '@/lib/agents/prepare-query'
import type { HistoryMessage } from '@/lib/agents/prompt'

// The question's write and the retrieval (issue 28): at once when the history is known before the write, the write
// first otherwise; a write that fails stops the retrieval running beside it.

const opened: OpenedConversation = { conversationId: 'conversation-1', visitorId: 'visitor-1', questionId: 'question-1', started: true }
const history: HistoryMessage[] = [{ role: 'user', text: 'Which kettle?' }, { role: 'assistant', text: 'The Zephyr.' }]

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)))
  return { promise, resolve, reject }
}

describe('storing a question while retrieving for it', () => {
  test('with the history known, the retrieval starts before the write ends, and gets that history', async () => {
    const write = deferred<OpenedConversation>()
    const calls: HistoryMessage[][] = []
    const running = storeAndRetrieve(write.promise, history, async given => (calls.push(given), 'fragments'))
    await Promise.resolve()
    expect(calls).toEqual([history])
    write.resolve(opened)
    expect(await running).toEqual({ opened, history, found: 'fragments' })
  })

  test('a write that fails stops the retrieval beside it and is the error', async () => {
    const write = deferred<OpenedConversation>()
    let stopped: unknown
    const running = storeAndRetrieve(write.promise, history, (_, signal) => new Promise((_, fail) => {
      signal.addEventListener('abort', () => ((stopped = signal.reason), fail(signal.reason)))
    }))
    const failure = new Error('Visitor not found')
    write.reject(failure)
    await expect(running).rejects.toBe(failure)
    expect(stopped).toBe(failure)
  })

  test('without a known history, the retrieval waits for the write (a conversation under a client\'s id)', async () => {
    const write = deferred<OpenedConversation>()
    let called = false
    const running = storeAndRetrieve(write.promise, undefined, async given => ((called = true), given))
    await new Promise(resolve => setTimeout(resolve, 10))
    expect(called).toBe(false)
    write.resolve(opened)
    // a conversation the query began: no history to read
    expect(await running).toEqual({ opened, history: [], found: [] })
  })

  test("the client's signal reaches the retrieval", async () => {
    const client = new AbortController()
    const running = storeAndRetrieve(Promise.resolve(opened), history, (_, signal) => new Promise((_, fail) => {
      signal.addEventListener('abort', () => fail(new Error('stopped by the client')))
    }), client.signal)
    client.abort()
    await expect(running).rejects.toThrow('stopped by the client')
  })
})
