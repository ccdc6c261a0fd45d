import { expect, test } from '@playwright/test'
import { auth, createAgent, createDatastore, fakeModel, upsertText, waitUntilSynched } from './support/dashboard'

test.afterEach(async ({ request }) => {
  await fakeModel(request, {})
})

test('a visitor opens the chat page of a public agent without signing in and gets an answer', async ({ browser, request, baseURL }) => {
  const store = await createDatastore(request)
  await upsertText(request, store.id, [{ name: 'hours.md', text: 'The Lindenfeld shop is open from nine to five.' }])
  await waitUntilSynched(request, store.id, 1)
  const agent = await createAgent(request, { visibility: 'public', description: 'Ask about the shop', datastoreIds: [store.id] })
  await fakeModel(request, { reply: 'The shop is open from **nine to five**.', delayMs: 10 })

  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await page.goto(`/chat/${agent.id}`)
  await expect(page).toHaveURL(new RegExp(`/chat/${agent.id}$`)) // no sign-in redirect
  await expect(page.getByRole('heading', { name: agent.name })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0) // no dashboard chrome

  await page.getByLabel('Your question').fill('When is the shop open?')
  await page.getByRole('button', { name: 'Send' }).click()
  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'done')
  await expect(answer.locator('strong')).toHaveText('nine to five')
  await expect(answer.getByTestId('answer-source').first()).toContainText('hours.md')

  // the visitor is remembered in the browser, and the conversation counts as the website's
  const visitorId = await page.evaluate(() => localStorage.getItem('ads-chat-visitor-id'))
  expect(visitorId).toBeTruthy()
  const list = await (await request.get(`/api/agents/${agent.id}/conversations`, { headers: auth })).json()
  expect(list[0]).toMatchObject({ channel: 'website', visitorId })

  const second = page.waitForRequest(r => r.url().endsWith(`/api/agents/${agent.id}/query`))
  await page.getByLabel('Your question').fill('And on Sunday?')
  await page.keyboard.press('Enter')
  expect((await second).postDataJSON()).toMatchObject({ visitorId, conversationId: list[0].id })
  await context.close()
})

test('the chat page works inside an iframe on another page', async ({ browser, request, baseURL }) => {
  const agent = await createAgent(request, { visibility: 'public' })
  await fakeModel(request, { reply: 'Hello from the iframe.', delayMs: 5 })
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.setContent(`<h1>Some other site</h1><iframe src="${baseURL}/chat/${agent.id}" width="420" height="600"></iframe>`)
  const frame = page.frameLocator('iframe')
  await expect(frame.getByRole('heading', { name: agent.name })).toBeVisible()
  await frame.getByLabel('Your question').fill('Hi?')
  await frame.getByRole('button', { name: 'Send' }).click()
  await expect(frame.getByTestId('assistant-message').last()).toContainText('Hello from the iframe.')
  await context.close()
})

test('the chat page of a private or unknown agent says it is not available', async ({ browser, request, baseURL }) => {
  const agent = await createAgent(request, { visibility: 'private' })
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await page.goto(`/chat/${agent.id}`)
  await expect(page.getByRole('heading', { name: 'This agent is not available' })).toBeVisible()
  await expect(page.getByText(agent.name)).toHaveCount(0)
  await page.goto('/chat/no-such-agent')
  await expect(page.getByRole('heading', { name: 'This agent is not available' })).toBeVisible()
  await expect(page).toHaveURL(/\/chat\/no-such-agent$/)
  await context.close()
})
