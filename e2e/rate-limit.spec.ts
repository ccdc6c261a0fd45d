import { expect, test } from '@playwright/test'
import { createAgent } from './support/dashboard'

// Runs last (its own project in playwright.config.ts): it uses up this minute's public-query allowance of the test
// machine's address.
test('a caller cannot escape the public rate limit by sending its own X-Forwarded-For', async ({ request }) => {
  const agent = await createAgent(request, { visibility: 'public' })
  const statuses: number[] = []
  for (let i = 0; i < 25; i++) {
    const res = await request.post(`/api/agents/${agent.id}/query`, {
      headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      data: { query: `question ${i}` },
    })
    statuses.push(res.status())
    if (res.status() === 429) {
      expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0)
      break
    }
  }
  // LIMIT_PUBLIC_QUERIES_PER_MINUTE is 20 on the test server: the 21st query at the latest is refused
  expect(statuses).toContain(429)
  expect(statuses.length).toBeLessThanOrEqual(21)
})
