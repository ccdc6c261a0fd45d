// Helpers of the inbox and gap-queue specs: many conversations made fast through the API, page width, axe.
import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { auth } from './dashboard'

/** Runs `task` for 0..count-1, `parallel` at a time. */
export async function inParallel(count: number, parallel: number, task: (i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++)
    }),
  )
}

/** Asks the agent; `headers` decide the channel (API key: api; none, on a public agent: website). */
export async function ask(request: APIRequestContext, agentId: string, query: string, headers: Record<string, string> = auth) {
  const res = await request.post(`/api/agents/${agentId}/query`, { headers, data: { query } })
  expect(res.status(), await res.text()).toBe(200)
  return (await res.json()) as { answer: string; conversationId: string; visitorId: string; messageId: string; sources: { text: string; datasource_name: string }[] }
}

export async function vote(request: APIRequestContext, a: { conversationId: string; messageId: string }, vote: 'good' | 'bad', comment?: string) {
  const res = await request.post(`/api/conversations/${a.conversationId}/messages/${a.messageId}/feedback`, { headers: auth, data: { vote, comment } })
  expect(res.status(), await res.text()).toBeLessThan(300)
}

/**
 * The page is no wider than the viewport (no sideways scrolling), once layout has settled: after a viewport change,
 * charts (ResizeObserver) re-measure asynchronously, so this waits for the state rather than reading it once.
 */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  await expect.poll(overflow, { message: 'the page scrolls sideways (px wider than the viewport)', timeout: 10_000 }).toBeLessThanOrEqual(0)
}

export async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)
}
