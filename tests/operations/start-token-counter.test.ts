// The server's start (lib/bootstrap.ts) builds the token counter's table once it is done, in idle time (issue 28):
// ~150 ms that the first question (its history budget) or the first synchronisation would otherwise wait for.
import { describe, expect, test } from 'vitest'
import { bootstrap } from '@/lib/bootstrap'
import { tokenCounterReady } from '@/lib/ingest/tokenizer'

describe("the server's start", () => {
  test('builds the token counter before any question or document comes, without holding the start up', async () => {
    expect(tokenCounterReady()).toBe(false)
    await bootstrap({ web: false, worker: false })
    // built just after: the start itself has returned first
    expect(tokenCounterReady()).toBe(false)
    await new Promise(resolve => setImmediate(resolve))
    expect(tokenCounterReady()).toBe(true)
  })
})
