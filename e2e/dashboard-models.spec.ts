import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createAgent, FAKE_MODEL, fakeModel } from './support/dashboard'

// Issue 27: the Models page against the fake OpenAI-compatible server — its model list shown, a mapping saved and
// used by the next playground answer (the fake server sees the new model id) without a restart, the connection test
// and the red banner when the server stops answering; the System page's figures after that traffic.

const SERVED = ['gpt-4o', 'gpt-4o-mini', 'qwen2.5:7b-e2e', 'text-embedding-3-small']

test.afterEach(async ({ request }) => {
  await fakeModel(request, {})
  // the organization's map back to the environment's, for the specs that follow
  expect((await request.put('/api/models/map', { headers: auth, data: {} })).status()).toBe(200)
})

async function lastChatModel(request: APIRequestContext): Promise<string | undefined> {
  const requests = (await (await request.get(`${FAKE_MODEL}/__requests`)).json()) as { path: string; body?: { model?: string } }[]
  return requests.filter(r => r.path === '/v1/chat/completions').at(-1)?.body?.model
}

async function askInPlayground(page: Page, agentId: string, question: string) {
  await page.goto(`/playground?agent=${agentId}`)
  await page.getByLabel('Your question').fill(question)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
}

test("the server's models are listed; a mapping saved on the page is what the next answer is sent as", async ({ page, request }) => {
  await fakeModel(request, { models: SERVED })
  const agent = await createAgent(request, { modelName: 'model_3_5_turbo' })
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click()
  await expect(page.getByRole('heading', { name: 'Models', exact: true })).toBeVisible()
  await expect(page.getByTestId('server-model')).toHaveText(SERVED)

  await page.getByLabel('GPT-3.5 Turbo (model_3_5_turbo)').fill('qwen2.5:7b-e2e')
  await page.getByRole('button', { name: 'Save map' }).click()
  await expect(page.getByText('Model map saved')).toBeVisible()

  // the agent form names the model id each choice is sent as
  await page.goto('/agents/new')
  await page.getByRole('combobox', { name: 'Model' }).click()
  await expect(page.getByRole('option', { name: 'GPT-3.5 Turbo', exact: true })).toContainText('qwen2.5:7b-e2e')
  await expect(page.getByRole('option', { name: 'GPT-4', exact: true })).toContainText('gpt-4o')
  await page.keyboard.press('Escape')

  await askInPlayground(page, agent.id, 'Which model answers?')
  expect(await lastChatModel(request)).toBe('qwen2.5:7b-e2e')
})

test('Test connection says each call went through; when the server stops answering it says so, and the red banner shows', async ({ page, request }) => {
  await signIn(page)
  await page.goto('/models')
  await page.getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByTestId('connection-chat')).toHaveAttribute('data-ok', 'true')
  await expect(page.getByTestId('connection-embeddings')).toContainText('ok, 64 dimensions returned')

  await fakeModel(request, { down: true })
  await page.getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByTestId('connection-chat')).toHaveAttribute('data-ok', 'false')
  await expect(page.getByTestId('connection-chat')).toContainText(`failed: could not reach ${FAKE_MODEL}/v1`)

  // the banner: once the cached probe (HEALTH_PROBE_INTERVAL_MS, 2 s here) has seen the server down
  const banner = page.getByTestId('model-down-banner')
  await expect(async () => {
    await page.reload()
    await expect(banner).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(banner).toContainText('The model server is not answering: could not reach')

  await fakeModel(request, {})
  await expect(async () => {
    await page.reload()
    await expect(banner).toBeHidden({ timeout: 1000 })
  }).toPass({ timeout: 20_000 })
})

test("the System page shows the queue, the failures, the answers' latency and today's tokens", async ({ page, request }) => {
  const agent = await createAgent(request, {})
  await signIn(page)
  await askInPlayground(page, agent.id, 'A question for the latency figure')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'System' }).click()
  await expect(page.getByRole('heading', { name: 'System', exact: true })).toBeVisible()
  await expect(page.getByTestId('system-queue')).toContainText('Due jobs')
  await expect(page.getByTestId('system-failures')).toContainText('Answers failed')
  const answers = page.getByTestId('system-latency').locator('[data-figure="Answers"]')
  await expect(answers).not.toHaveText('0')
  await expect(page.getByTestId('system-latency').locator('[data-figure="p50"]')).toHaveText(/\d+(\.\d)? m?s/)
  await expect(page.getByTestId('system-tokens').locator('[data-figure="Prompt"]')).not.toHaveText('0')
  await expect(page.getByTestId('system-services').locator('[data-figure="Model server"]')).toHaveText('answering')
  // the e2e server runs on the embedded database, in its own thread (issue 28)
  await expect(page.getByTestId('system-services').locator('[data-figure="Database"]')).toHaveText(/^embedded, own thread, \d+ waiting$/)
})
