import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { createDatastore, fakeModel, upsertText } from './support/dashboard'
import { makeSupportData } from './support/realistic-data'

// Makes its own data, then visits each main page: on a laptop it saves a screenshot (to docs/screenshots/, shown in
// the README, when UPDATE_SCREENSHOTS=1; else to test-results/ so a test run leaves the tree clean); on a phone
// (390 px wide) it checks that nothing is wider than the screen.

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots'

// Realistic names (issue 15): run alone for the README, `UPDATE_SCREENSHOTS=1 npx playwright test e2e/dashboard-screenshots.spec.ts`,
// so the lists hold only this data (the suite's other specs share the server).
interface Fixture {
  datastoreId: string
  manualId: string
  agentId: string
  conversationId: string
}

let fixture: Fixture

test.beforeAll(async ({ request }) => {
  const data = await makeSupportData(request, { count: 12, datastoreName: 'Aurora appliances — customer support' })
  const toasters = await createDatastore(request, 'Borealis toasters — service manuals')
  await upsertText(request, toasters.id, [
    { name: 'BT-4 crumb tray and cleaning', text: 'Slide the crumb tray out from the back of the Borealis BT-4 and empty it once a week.' },
    { name: 'BT-4 error codes', text: 'A flashing orange light means the lever is stuck: unplug the toaster and let it cool.' },
  ])
  const hr = await createDatastore(request, 'Internal HR policies (staff only)')
  await upsertText(request, hr.id, [{ name: 'Holiday requests', text: 'Request holidays at least two weeks ahead in the HR portal.' }])
  fixture = { datastoreId: data.datastoreId, manualId: data.manualId, agentId: data.agentId, conversationId: data.conversationId }
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
  ['datasource', f => `/datastores/${f.datastoreId}/datasources/${f.manualId}`],
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
  await page.goto(`/datastores/${fixture.datastoreId}`)
  await settle(page)
  await page.screenshot({ path: `${SHOTS}/datastore-phone.png` })
  for (const [name, path] of all) {
    await page.goto(path(fixture))
    await settle(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0)
  }
})
