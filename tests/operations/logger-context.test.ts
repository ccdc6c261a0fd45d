import { afterEach, describe, expect, it, vi } from 'vitest'

// Under `npm start` lib/logger.ts is bundled twice (the instrumentation's copy answers the API, Next's copy the pages
// and the other routes): both copies must share one request context.
describe('the log context', () => {
  afterEach(() => vi.restoreAllMocks())

  it('is seen by every copy of the logger module in the process', async () => {
    const first = await import('@/lib/logger')
    vi.resetModules()
    const second = await import('@/lib/logger')
    expect(second).not.toBe(first)
    const lines: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
    await first.withLogContext({ requestId: 'req-shared' }, async () => {
      await Promise.resolve()
      second.logger.error('written by the other copy')
    })
    second.logger.error('outside any request')
    const [inside, outside] = lines.map(line => JSON.parse(line))
    expect(inside).toMatchObject({ message: 'written by the other copy', requestId: 'req-shared' })
    expect(outside.requestId).toBeUndefined()
  })
})
