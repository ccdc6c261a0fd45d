import { expect, test, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createAgent, createDatastore, FAKE_MODEL, fakeModel, upsertText, waitUntilSynched } from './support/dashboard'

let agentId: string

test.beforeAll(async ({ request }) => {
  const store = await createDatastore(request)
  await upsertText(request, store.id, [
    { name: 'returns-policy.md', text: 'Customers may return the Aurora kettle within thirty days for a full refund.' },
  ])
  await waitUntilSynched(request, store.id, 1)
  agentId = (await createAgent(request, { datastoreIds: [store.id] })).id
})

test.afterEach(async ({ request }) => {
  await fakeModel(request, {})
})

/** Records, in the page, the length of the last answer's text each time it changes. */
async function recordAnswerGrowth(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __lengths: number[] }
    w.__lengths = []
    new MutationObserver(() => {
      const answers = document.querySelectorAll('[data-testid="assistant-message"]')
      const last = answers[answers.length - 1]
      const text = last?.querySelector('[data-testid="answer-text"]')?.textContent ?? ''
      if (text.length && w.__lengths[w.__lengths.length - 1] !== text.length) w.__lengths.push(text.length)
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
}

async function ask(page: Page, question: string) {
  await page.getByLabel('Your question').fill(question)
  await page.keyboard.press('Enter')
}

test('an answer streams in piece by piece with its sources, and a follow-up continues the conversation', async ({ page, request }) => {
  const reply = 'You can return the **Aurora kettle** within thirty days.\n\n- Keep the receipt\n- Pack it in its box'
  await fakeModel(request, { reply, delayMs: 80 })
  await signIn(page)
  await page.goto(`/playground?agent=${agentId}`)
  await recordAnswerGrowth(page)
  await ask(page, 'Can I return the kettle?')

  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'streaming')
  await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths)
  const final = lengths[lengths.length - 1]
  // at least two partial states were shown before the whole answer
  expect(lengths.filter(n => n < final).length).toBeGreaterThanOrEqual(2)
  // Markdown rendered, sources listed
  await expect(answer.locator('strong', { hasText: 'Aurora kettle' })).toBeVisible()
  await expect(answer.getByRole('listitem').filter({ hasText: 'Keep the receipt' })).toBeVisible()
  await expect(answer.getByTestId('answer-source').first()).toContainText('returns-policy.md')

  const conversationLink = page.getByTestId('conversation-state').getByRole('link')
  const href = await conversationLink.getAttribute('href')
  const conversationId = new URL(href!, 'http://x').searchParams.get('c')!

  await fakeModel(request, { reply: 'Yes, the refund is complete.', delayMs: 5 })
  await ask(page, 'Is the refund complete?')
  await expect(page.getByTestId('assistant-message')).toHaveCount(2)
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
  await expect(page.getByTestId('assistant-message').last()).toContainText('Yes, the refund is complete.')
  await expect(conversationLink).toHaveAttribute('href', href!)
  const conversation = await (await request.get(`/api/conversations/${conversationId}`, { headers: auth })).json()
  expect(conversation.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])

  // "new conversation" starts over
  await page.getByRole('button', { name: 'New conversation' }).click()
  await expect(page.getByTestId('assistant-message')).toHaveCount(0)
  await expect(page.getByTestId('conversation-state')).toHaveText('New conversation')
})

test('the stop button ends a stream, keeping what arrived', async ({ page, request }) => {
  await fakeModel(request, { reply: 'This is a very slow answer that will never finish in time. '.repeat(3), delayMs: 1500 })
  await signIn(page)
  await page.goto(`/playground?agent=${agentId}`)
  await ask(page, 'Tell me everything')
  const answer = page.getByTestId('assistant-message').last()
  await expect(answer.getByTestId('answer-text')).not.toBeEmpty()
  await page.getByRole('button', { name: 'Stop the answer' }).click()
  await expect(answer).toHaveAttribute('data-status', 'stopped')
  await expect(answer.getByTestId('answer-stopped')).toHaveText('Stopped before the answer was complete')
  const kept = await answer.getByTestId('answer-text').textContent()
  expect(kept).toMatch(/^This is a/)
  // the composer is ready for the next question
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  // and the model call was abandoned, not run to its end
  await expect
    .poll(async () => {
      const requests = await (await request.get(`${FAKE_MODEL}/__requests`)).json()
      return requests.filter((r: { path: string; clientClosed?: boolean }) => r.path === '/v1/chat/completions').at(-1)?.clientClosed
    })
    .toBe(true)
})

test('a model failure during the answer is shown in words', async ({ page, request }) => {
  await fakeModel(request, { reply: 'This answer breaks in the middle of its sentence, sadly.', mode: 'drop-mid-stream', delayMs: 20 })
  await signIn(page)
  await page.goto(`/playground?agent=${agentId}`)
  await ask(page, 'Will this work?')
  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'error')
  await expect(answer.getByTestId('answer-error')).toContainText('The answer stopped:')
})

test('the playground overrides the model and temperature of one question only', async ({ page, request }) => {
  await fakeModel(request, { reply: 'Overridden.', delayMs: 5 })
  await signIn(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/playground?agent=${agentId}`)
  const settings = page.getByRole('group', { name: 'Overrides for this conversation' }).last()
  await settings.getByRole('combobox', { name: 'Model' }).click()
  await page.getByRole('option', { name: 'GPT-4', exact: true }).click()
  await settings.getByRole('switch', { name: 'Override temperature' }).click()
  await settings.getByRole('slider', { name: 'Temperature' }).focus()
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight')
  const sent = page.waitForRequest(r => r.url().endsWith(`/api/agents/${agentId}/query`))
  await ask(page, 'Which model?')
  const body = (await sent).postDataJSON()
  expect(body).toMatchObject({ query: 'Which model?', streaming: true, modelName: 'model_4', temperature: 0.2 })
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
})

test('the conversations view lists the agent’s conversations and shows one’s messages with their sources', async ({ page, request }) => {
  await fakeModel(request, { reply: 'Thirty days, with the receipt.', delayMs: 1 })
  const res = await request.post(`/api/agents/${agentId}/query`, { headers: auth, data: { query: 'How long do I have to return the kettle?' } })
  expect(res.status()).toBe(200)
  const { conversationId } = await res.json()

  await signIn(page)
  await page.goto(`/agents/${agentId}`)
  await page.getByRole('navigation', { name: 'Agent sections' }).getByRole('link', { name: 'Conversations' }).click()
  await page.getByTestId('conversation-item').filter({ hasText: 'Thirty days, with the receipt.' }).click()
  await expect(page).toHaveURL(new RegExp(`c=${conversationId}`))
  const detail = page.getByTestId('conversation-detail')
  await expect(detail.getByTestId('user-message')).toHaveText('How long do I have to return the kettle?')
  await expect(detail.getByTestId('assistant-message')).toContainText('Thirty days, with the receipt.')
  await expect(detail.getByTestId('answer-source').first()).toContainText('returns-policy.md')
  await expect(detail).toContainText('API')
})
