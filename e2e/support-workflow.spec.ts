import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { startWidgetSite } from './support/chaindesk-widget'
import { auth, createAgent, fakeModel, FAKE_MODEL, unique } from './support/dashboard'

// The support workflow (issue 23) in Chromium: a visitor asks for a person, an operator replies from the dashboard's
// inbox, the lead shows on the Leads page, the visitor marks the conversation resolved. Once with Chaindesk's own
// widget, unmodified (@databerry/chat-bubble 1.0.142, e2e/support/chaindesk-widget.ts), once with our chat.

test.afterEach(async ({ request }) => {
  await fakeModel(request, {})
})

async function chatRequests(request: APIRequestContext): Promise<number> {
  const requests = (await (await request.get(`${FAKE_MODEL}/__requests`)).json()) as { path: string }[]
  return requests.filter(r => r.path === '/v1/chat/completions').length
}

/** The operator, signed in, opens the inbox's "Needs a human" tab and the conversation that starts with `question`. */
async function openHandedOver(browser: Browser, question: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await signIn(page)
  await page.goto('/conversations')
  await page.getByTestId('status-tab-HUMAN_REQUESTED').click()
  const item = page.getByTestId('conversation-item').filter({ hasText: question })
  await expect(item).toBeVisible()
  await expect(item).toContainText('Needs a human')
  await item.click()
  await expect(page.getByTestId('conversation-status')).toHaveText('Needs a human')
  return page
}

async function reply(operator: Page, text: string) {
  await operator.getByTestId('reply-text').fill(text)
  await operator.getByTestId('reply-send').click()
  await expect(operator.getByTestId('conversation-answerer')).toHaveText('A person answers')
  await expect(operator.getByTestId('assistant-message').filter({ hasText: text })).toBeVisible()
}

/**
 * Opens the bubble's panel unless it is open. Its closed panel stays in the DOM, transparent: Playwright calls its
 * textarea visible and will type into it, but nothing in it can be clicked (the page receives the click), so whether
 * it is open is asked with a trial click, not isVisible().
 */
async function openPanel(bubble: Locator) {
  const textarea = bubble.locator('textarea').first()
  const open = await textarea.click({ trial: true, timeout: 2_000 }).then(() => true, () => false)
  if (!open) await bubble.locator('.MuiAvatar-root').last().click()
  await textarea.click({ trial: true })
}

test("Chaindesk's widget: Request Human, the operator's reply in the widget, the lead on the Leads page, Mark As Resolved", async ({ browser, request, baseURL }) => {
  test.setTimeout(150_000)
  const site = await startWidgetSite(baseURL!)
  const agent = await createAgent(request, { visibility: 'public' })
  await fakeModel(request, { reply: 'I can help with orders.', delayMs: 5 })
  const question = unique('Where is my order')
  const email = `${unique('ada').replace(/\s/g, '-').toLowerCase()}@example.com`
  const visitor = await (await browser.newContext()).newPage()
  try {
    await visitor.route(u => !['127.0.0.1', 'localhost'].includes(u.hostname), route => route.abort())
    await visitor.goto(site.pageFor(agent.id))
    const bubble = visitor.locator('chaindesk-chatbox-bubble')
    const textarea = bubble.locator('textarea').first()
    await openPanel(bubble)
    await textarea.fill(question)
    await textarea.press('Enter')
    await expect(bubble.locator('.message-agent').filter({ hasText: 'I can help with orders.' })).toHaveCount(1)

    // the widget asks for an email before it lets the visitor ask for a person
    const emailInput = bubble.locator('#lead-form')
    // the form is drawn again when the widget re-reads its conversation after the answer: a value typed just before
    // is lost with the old input (its button then only asks for a valid email), so type, check, send, until it is sent
    await expect(async () => {
      await emailInput.fill(email)
      await expect(emailInput).toHaveValue(email, { timeout: 1_000 })
      const captured = visitor.waitForResponse(r => r.request().method() === 'POST' && r.url().includes(`/api/agents/${agent.id}/capture`), { timeout: 5_000 })
      await bubble.locator('div:has(> #lead-form) button').click({ timeout: 5_000 })
      expect((await captured).status()).toBe(201)
    }).toPass({ timeout: 60_000 })
    // the widget reads the lead back from the conversation (`lead.email`) and puts its form away
    await expect(emailInput).toHaveCount(0)
    const requestHuman = bubble.getByRole('button', { name: 'Request Human' })
    const patched = visitor.waitForResponse(r => r.request().method() === 'PATCH' && r.url().includes('/api/conversations/'))
    await requestHuman.click()
    expect((await patched).status()).toBe(200)
    await expect(bubble.getByRole('button', { name: 'Human Requested' })).toBeVisible()

    const operator = await openHandedOver(browser, question)
    await expect(operator.getByTestId('conversation-lead')).toHaveText(new RegExp(email))
    await reply(operator, 'Hi, Admin here: your order left today.')

    // the widget polls its conversation (every 30 s while the AI answers, 5 s once a person does)
    await expect(bubble.locator('.message-agent').filter({ hasText: 'your order left today' })).toHaveCount(1, { timeout: 45_000 })

    // a person has it now: the visitor's next message goes to them, never to the model
    const before = await chatRequests(request)
    await textarea.fill('Thank you! Which carrier?')
    await textarea.press('Enter')
    await expect(operator.getByTestId('user-message').filter({ hasText: 'Which carrier?' })).toBeVisible()
    expect(await chatRequests(request)).toBe(before)

    await operator.goto('/leads')
    await expect(operator.getByTestId('lead-row').filter({ hasText: email })).toBeVisible()

    const resolved = visitor.waitForResponse(r => r.request().method() === 'PATCH' && r.url().includes('/api/conversations/'))
    await bubble.getByRole('button', { name: 'Mark As Resolved' }).click()
    const conversationId = new URL((await resolved).url()).pathname.split('/').pop()!
    const stored = await (await request.get(`/api/conversations/${conversationId}`, { headers: auth })).json()
    expect(stored.status).toBe('RESOLVED')
    await operator.goto('/conversations')
    await operator.getByTestId('status-tab-RESOLVED').click()
    await expect(operator.getByTestId('conversation-item').filter({ hasText: question })).toBeVisible()
  } finally {
    await visitor.context().close()
    await site.close()
  }
})

test('our chat: the email left, "Talk to a person", the operator\'s named reply shown live, the lead listed, "Resolved"', async ({ browser, request }) => {
  test.setTimeout(120_000)
  const agent = await createAgent(request, { visibility: 'public' })
  await fakeModel(request, { reply: 'Let me see.', delayMs: 5 })
  const question = unique('My kettle leaks')
  const email = `${unique('grace').replace(/\s/g, '-').toLowerCase()}@example.com`
  const visitor = await (await browser.newContext()).newPage()
  try {
    await visitor.goto(`/chat/${agent.id}`)
    await visitor.getByLabel('Your question').fill(question)
    await visitor.getByLabel('Your question').press('Enter')
    await expect(visitor.getByTestId('assistant-message').filter({ hasText: 'Let me see.' })).toBeVisible()
    await visitor.getByLabel('Your email, so a person can reply').fill(email)
    await visitor.getByRole('button', { name: 'Leave my email' }).click()
    await expect(visitor.getByTestId('lead-left')).toContainText(email)
    await visitor.getByRole('button', { name: 'Talk to a person' }).click()
    await expect(visitor.getByRole('button', { name: 'A person has been asked' })).toBeDisabled()

    const operator = await openHandedOver(browser, question)
    await reply(operator, 'Sorry to hear that: we will send a new one.')
    const answer = visitor.getByTestId('assistant-message').filter({ hasText: 'we will send a new one' })
    await expect(answer).toBeVisible()
    await expect(answer.getByTestId('operator-name')).toContainText('Admin')
    await expect(visitor.getByTestId('person-answering')).toBeVisible()

    const before = await chatRequests(request)
    await visitor.getByLabel('Your question').fill('Great, thanks')
    await visitor.getByLabel('Your question').press('Enter')
    await expect(operator.getByTestId('user-message').filter({ hasText: 'Great, thanks' })).toBeVisible()
    expect(await chatRequests(request)).toBe(before)

    await expect(operator.getByTestId('conversation-lead')).toHaveText(new RegExp(email))

    await visitor.getByRole('button', { name: 'Resolved' }).click()
    await expect(visitor.getByTestId('chat-welcome')).toBeVisible()
    await expect(operator.getByTestId('conversation-status')).toHaveText('Resolved')
    await operator.goto('/leads')
    await expect(operator.getByTestId('lead-row').filter({ hasText: email })).toBeVisible()
  } finally {
    await visitor.context().close()
  }
})
