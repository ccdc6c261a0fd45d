import { expect, test, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createAgent, createDatastore, fakeModel, upsertText, waitUntilSynched } from './support/dashboard'
import { ask, expectNoSidewaysScroll, inParallel, seriousViolations, vote } from './support/inbox'

// The conversation inbox (issue 15): an agent with 250 conversations, every one reachable page by page, each filter,
// a conversation with its sources and votes, export, votes from the playground, a phone's width, axe.

test.describe.configure({ mode: 'serial' })

const TOTAL = 250
let agentId: string
let agentName: string
const seeded = { website: 3, dashboard: 2, api: TOTAL - 5 }
let good: { conversationId: string; messageId: string }
let bad: { conversationId: string; messageId: string }

test.beforeAll(async ({ request, browser }) => {
  test.setTimeout(300_000)
  await fakeModel(request, { reply: 'Here is what I know.', delayMs: 0 })
  const store = await createDatastore(request)
  await upsertText(request, store.id, [{ name: 'warranty.md', text: 'The Aurora kettle carries a warranty of two years.' }])
  await waitUntilSynched(request, store.id, 1)
  const agent = await createAgent(request, { visibility: 'public' })
  agentId = agent.id
  agentName = agent.name
  await inParallel(seeded.api, 6, async i => {
    const a = await ask(request, agentId, i === 7 ? 'Is the zebrawood lid dishwasher safe?' : `Question ${i}: how do I descale the kettle?`)
    if (i === 1) good = a
    if (i === 2) bad = a
  })
  for (let i = 0; i < seeded.website; i++) await ask(request, agentId, `Website visitor ${i}: opening hours?`, {})
  await vote(request, good, 'good')
  await vote(request, bad, 'bad', 'Too vague')
  // the agent now reads a datastore with a floor: a question of unknown words finds no source
  const patched = await request.patch(`/api/agents/${agentId}`, { headers: auth, data: { description: 'Kettle help', datastoreIds: [store.id], minScore: 0.3 } })
  expect(patched.status(), await patched.text()).toBe(200)
  const context = await browser.newContext()
  const page = await context.newPage()
  await signIn(page)
  for (const [query, found] of [['Do you deliver to Mars by rocket?', false], ['What warranty does the Aurora kettle carry?', true]] as const) {
    const res = await page.request.post(`/api/agents/${agentId}/query`, { data: { query } })
    expect(res.status(), await res.text()).toBe(200)
    expect(((await res.json()).sources as unknown[]).length > 0, query).toBe(found)
  }
  await context.close()
})

test.afterAll(async ({ request }) => {
  await fakeModel(request, {})
})

async function loadAll(page: Page) {
  const more = page.getByTestId('inbox-more')
  while (await more.isVisible()) {
    const before = await page.getByTestId('conversation-item').count()
    await more.click()
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBeGreaterThan(before)
  }
}

test('the agent’s inbox pages through all 250 conversations', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  await page.goto(`/agents/${agentId}/conversations`)
  await expect(page.getByTestId('conversation-item')).toHaveCount(50)
  await loadAll(page)
  await expect(page.getByTestId('conversation-item')).toHaveCount(TOTAL)
  await expect(page.getByTestId('inbox-count')).toHaveText(`${TOTAL} shown (all)`)
  // the oldest is reachable
  await expect(page.getByTestId('conversation-item').filter({ hasText: 'Question 0:' })).toHaveCount(1)
})

test('the organization’s inbox filters by agent, channel, date range, text, feedback and no/weak sources', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  await page.goto('/conversations')
  await page.getByLabel('Agent').selectOption({ label: agentName })
  const items = page.getByTestId('conversation-item')
  await expect(items).toHaveCount(50)
  await page.getByLabel('Channel').selectOption('website')
  await expect(items).toHaveCount(seeded.website)
  await page.getByLabel('Channel').selectOption('dashboard')
  await expect(items).toHaveCount(seeded.dashboard)
  await expect(items.first().getByTestId('channel-badge')).toHaveText('Playground')
  await page.getByLabel('Channel').selectOption('')

  await page.getByLabel('Search the messages').fill('zebrawood')
  await expect(items).toHaveCount(1)
  await page.getByLabel('Search the messages').fill('')
  await expect(items).toHaveCount(50)

  await page.getByLabel('Feedback').selectOption('good')
  await expect(items).toHaveCount(1)
  await page.getByLabel('Feedback').selectOption('bad')
  await expect(items).toHaveCount(1)
  await items.first().click()
  await expect(page.getByTestId('conversation-detail').getByTestId('answer-votes')).toContainText('1')
  await expect(page.getByTestId('conversation-detail')).toContainText('Too vague')
  await page.getByLabel('Feedback').selectOption('')

  await page.getByLabel('Sources', { exact: true }).selectOption('none')
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('Mars')
  await items.first().click()
  await expect(page.getByTestId('conversation-detail')).toContainText('No sources')
  await page.getByLabel('Sources', { exact: true }).selectOption('')

  const today = new Date().toISOString().slice(0, 10)
  await page.getByLabel('From', { exact: true }).fill('2020-01-01')
  await page.getByLabel('To', { exact: true }).fill('2020-01-31')
  await expect(page.getByText('No conversation matches these filters.')).toBeVisible()
  await page.getByLabel('To', { exact: true }).fill(today)
  await expect(items).toHaveCount(50)

  // the export follows the filters
  await page.getByLabel('Channel').selectOption('website')
  const href = await page.getByTestId('export-jsonl').getAttribute('href')
  const res = await page.request.get(href!)
  expect(res.status()).toBe(200)
  const lines = (await res.text()).trim().split('\n').map(l => JSON.parse(l))
  expect(lines).toHaveLength(seeded.website)
  expect(lines[0].messages.length).toBeGreaterThanOrEqual(2)
  const csv = await page.request.get((await page.getByTestId('export-csv').getAttribute('href'))!)
  expect((await csv.text()).split('\r\n')[0]).toContain('conversation_id')
})

test('a vote from the playground, with a comment, shows in the inbox', async ({ page }) => {
  await signIn(page)
  await page.goto(`/playground?agent=${agentId}`)
  await page.getByLabel('Your question').fill('Can I put the kettle in the oven?')
  await page.keyboard.press('Enter')
  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  await answer.getByTestId('vote-bad').click()
  await answer.getByTestId('feedback-comment').fill('It should say never')
  await answer.getByTestId('feedback-send').click()
  await expect(answer.getByTestId('feedback-status')).toHaveText('Thanks for the feedback')
  await expect(answer.getByTestId('vote-bad')).toHaveAttribute('aria-pressed', 'true')

  await page.goto(`/agents/${agentId}/conversations`)
  await page.getByLabel('Feedback').selectOption('bad')
  await page.getByTestId('conversation-item').filter({ hasText: 'oven' }).click()
  await expect(page.getByTestId('conversation-detail')).toContainText('It should say never')
})

test('the inbox fits a 390 px phone and axe finds no serious violation', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page)
  for (const path of ['/conversations', `/agents/${agentId}/conversations`]) {
    await page.goto(path)
    await expect(page.getByTestId('conversation-item').first()).toBeVisible()
    await expectNoSidewaysScroll(page)
    expect(await seriousViolations(page)).toEqual([])
  }
  // the channel badge is whole: not cut by its row nor by its own box
  const badge = page.getByTestId('channel-badge').first()
  const [badgeBox, itemBox] = [await badge.boundingBox(), await page.getByTestId('conversation-item').first().boundingBox()]
  expect(badgeBox!.x + badgeBox!.width).toBeLessThanOrEqual(itemBox!.x + itemBox!.width)
  expect(await badge.evaluate(el => el.scrollWidth <= el.clientWidth)).toBe(true)
  // a conversation opened on a phone: the list gives way to it
  await page.getByTestId('conversation-item').first().click()
  await expect(page.getByTestId('conversation-detail')).toBeVisible()
  await expectNoSidewaysScroll(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/conversations`)
  await page.getByTestId('conversation-item').first().click()
  await expect(page.getByTestId('conversation-detail')).toBeVisible()
  await page.goto('/usage')
  await expect(page.getByTestId('usage-chart').first()).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.setViewportSize({ width: 390, height: 844 })
  await expectNoSidewaysScroll(page)
})

test('a visitor of the public chat votes on an answer, as that visitor', async ({ browser, request }) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`/chat/${agentId}`)
  await page.getByLabel('Your question').fill('Does the kettle whistle?')
  await page.keyboard.press('Enter')
  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  await answer.getByTestId('vote-good').click()
  await expect(answer.getByTestId('feedback-status')).toHaveText('Thanks for the feedback')
  await context.close()
  const list = await (await request.get(`/api/conversations?agentId=${agentId}&channel=website&feedback=good&q=whistle`, { headers: auth })).json()
  expect(list.items).toHaveLength(1)
  expect(list.items[0].votes).toEqual({ good: 1, bad: 0 })
})
