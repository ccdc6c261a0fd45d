import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createAgent, createDatastore, fakeModel, makeFile, unique, upsertText, waitUntilSynched } from './support/dashboard'

// Makes its own data, then visits each main page: on a laptop it saves a screenshot (to docs/screenshots/, shown in
// the README, when UPDATE_SCREENSHOTS=1; else to test-results/ so a test run leaves the tree clean); on a phone
// (390 px wide) it checks that nothing is wider than the screen.

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots'

interface Fixture {
  datastoreId: string
  agentId: string
  conversationId: string
}

let fixture: Fixture

test.beforeAll(async ({ request }) => {
  const store = await createDatastore(request, unique('Product documentation'))
  await upsertText(request, store.id, [
    { name: 'warranty.md', text: 'The Aurora kettle has a two-year warranty covering parts and labour. Keep your receipt.' },
    { name: 'descaling.md', text: 'Descale the Aurora kettle every four weeks with white vinegar diluted in water.' },
    { name: 'shipping.md', text: 'Orders ship within two working days. Delivery is free above 50 euros.' },
  ])
  const csv = makeFile('price-list.csv', 'product,price\nAurora kettle,79\nBorealis toaster,59\n')
  const up = await request.post('/api/datasources', {
    headers: auth,
    multipart: { type: 'file', datastoreId: store.id, file: { name: 'price-list.csv', mimeType: 'text/csv', buffer: fs.readFileSync(csv) } },
  })
  expect(up.status()).toBe(201)
  await waitUntilSynched(request, store.id, 4)
  const agent = await createAgent(request, {
    name: unique('Kettle support'),
    description: 'Answers customers about the Aurora kettle',
    visibility: 'public',
    modelName: 'model_4',
    temperature: 0.2,
    datastoreIds: [store.id],
  })
  await fakeModel(request, { reply: 'The Aurora kettle has a **two-year warranty** covering parts and labour.\n\nKeep your receipt: you will need it for a claim.', delayMs: 1 })
  const res = await request.post(`/api/agents/${agent.id}/query`, { headers: auth, data: { query: 'How long is the kettle warranty?' } })
  expect(res.status()).toBe(200)
  fixture = { datastoreId: store.id, agentId: agent.id, conversationId: (await res.json()).conversationId }
})

test.afterAll(async ({ request }) => {
  await fakeModel(request, {})
})

async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

const pages: [string, (f: Fixture) => string][] = [
  ['agents', () => '/agents'],
  ['agent', f => `/agents/${f.agentId}`],
  ['conversations', f => `/agents/${f.agentId}/conversations?c=${f.conversationId}`],
  ['datastores', () => '/datastores'],
  ['datastore', f => `/datastores/${f.datastoreId}`],
  ['usage', () => '/usage'],
  ['api-keys', () => '/api-keys'],
]

test('screenshots of the main pages on a laptop', async ({ page, browser, baseURL }) => {
  fs.mkdirSync(SHOTS, { recursive: true })
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page)
  for (const [name, path] of pages) {
    await page.goto(path(fixture))
    await settle(page)
    await page.screenshot({ path: `${SHOTS}/${name}.png` })
  }

  // the search tester with results
  await page.goto(`/datastores/${fixture.datastoreId}`)
  await page.getByRole('tab', { name: 'Search tester' }).click()
  await page.getByLabel('Query').fill('kettle warranty')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByTestId('fragment').first()).toBeVisible()
  await page.screenshot({ path: `${SHOTS}/search-tester.png` })

  // the playground with an answer and its sources
  await page.goto(`/playground?agent=${fixture.agentId}`)
  await page.getByLabel('Your question').fill('How long is the kettle warranty?')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
  await page.getByTestId('answer-source').first().locator('summary').click()
  await page.screenshot({ path: `${SHOTS}/playground.png` })

  // the public chat page, as a visitor on a phone sees it
  const visitor = await browser.newContext({ baseURL, viewport: { width: 390, height: 760 } })
  const chat = await visitor.newPage()
  await chat.goto(`/chat/${fixture.agentId}`)
  await chat.getByLabel('Your question').fill('Do I need my receipt?')
  await chat.keyboard.press('Enter')
  await expect(chat.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
  await chat.screenshot({ path: `${SHOTS}/public-chat.png` })
  await visitor.close()
})

test('every main page fits a 390 px phone screen without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page)
  const all: [string, (f: Fixture) => string][] = [...pages, ['playground', f => `/playground?agent=${f.agentId}`], ['new agent', () => '/agents/new']]
  for (const [name, path] of all) {
    await page.goto(path(fixture))
    await settle(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0)
  }
  await page.goto(`/datastores/${fixture.datastoreId}`)
  await settle(page)
  await page.screenshot({ path: `${SHOTS}/datastore-phone.png` })
})
