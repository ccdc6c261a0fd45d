// Every answer names its request (x-request-id), an error body says the same id, and every log line written while
// serving the request carries it, so an operator goes from a customer's error to its log lines in one search.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { z } from 'zod'
import * as datastores from '@/app/api/datastores/route'
import * as catchAll from '@/app/api/[...path]/route'
import { endpoint, endpoints } from '@/lib/api/endpoint'
import { logger } from '@/lib/logger'
import { call } from '../helpers/http'
import { createTenant } from '../helpers/tenants'

afterEach(() => vi.restoreAllMocks())

/** The JSON log lines written (stdout and stderr) while `fn` runs. */
async function logLines(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line))
  vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
  await fn()
  vi.restoreAllMocks()
  return lines.flatMap(l => {
    try {
      return [JSON.parse(l)]
    } catch {
      return []
    }
  })
}

describe('request ids', () => {
  test("a success carries a generated x-request-id, or the caller's own when well-formed", async () => {
    const { headers } = await createTenant()
    const generated = await call(datastores.GET, '/api/datastores', { headers })
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const own = await call(datastores.GET, '/api/datastores', { headers: { ...headers, 'x-request-id': 'trace-abc.123:xyz' } })
    expect(own.headers.get('x-request-id')).toBe('trace-abc.123:xyz')
    const malformed = await call(datastores.GET, '/api/datastores', { headers: { ...headers, 'x-request-id': 'a b<script>' } })
    expect(malformed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  test("an error's x-request-id is its body's error.requestId", async () => {
    const refused = await call(datastores.GET, '/api/datastores')
    expect(refused.status).toBe(401)
    expect(refused.json.error.requestId).toBe(refused.headers.get('x-request-id'))
    const unknown = await call(catchAll.GET, '/api/nothing/here', { params: { path: ['nothing', 'here'] } })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error.requestId).toBe(unknown.headers.get('x-request-id'))
    const wrongMethod = await call(datastores.PUT, '/api/datastores', { method: 'PUT' })
    expect(wrongMethod.json.error.requestId).toBe(wrongMethod.headers.get('x-request-id'))
  })

  test('every log line written while serving a request carries its id, the 500 included', async () => {
    const { GET } = endpoints('/api/x', {
      GET: endpoint({
        summary: 'A handler that logs, then fails',
        access: 'public',
        response: z.object({}),
        handler: async () => {
          logger.error('about to fail', { step: 1 })
          await new Promise(resolve => setTimeout(resolve, 5))
          throw new Error('a bug')
        },
      }),
    })
    let res: Awaited<ReturnType<typeof call>> | undefined
    const lines = await logLines(async () => (res = await call(GET, '/api/x', { headers: { 'x-request-id': 'req-0123456789' } })))
    expect(res!.status).toBe(500)
    expect(res!.json.error.requestId).toBe('req-0123456789')
    const mine = lines.filter(l => l.message === 'about to fail' || l.message === 'unexpected error')
    expect(mine).toHaveLength(2)
    for (const line of mine) expect(line.requestId).toBe('req-0123456789')
  })
})
