import http from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, fakeModel, unique } from './support/dashboard'

// Agents that act (issue 25), in the dashboard: an HTTP tool given in the agent form (its secret header masked once
// saved), the playground showing the call and the answer that used it, and the "Connect an assistant" page.

const SECRET = 'sk-e2e-orders-5d1f'
let api: { url: string; seen: http.IncomingHttpHeaders[]; close: () => Promise<void> }

test.beforeAll(async () => {
  const seen: http.IncomingHttpHeaders[] = []
  const server = http.createServer((req, res) => {
    seen.push(req.headers)
    const order = /^\/orders\/([^/?]+)/.exec(req.url ?? '')?.[1]
    res.writeHead(order ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ order, status: 'shipped on Tuesday' }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise(r => server.close(() => r())) }
})
test.afterAll(async () => api.close())
test.afterEach(async ({ request }) => fakeModel(request, {}))

test('an HTTP tool given in the agent form is called in the playground, which shows the call and the answer using it', async ({ page, request }) => {
  await signIn(page)
  await page.goto('/agents/new')
  await page.getByLabel('Name', { exact: true }).fill(unique('Order agent'))
  await page.getByRole('button', { name: 'Add an HTTP API' }).click()
  const tool = page.getByTestId('agent-tool')
  await tool.getByLabel('Name', { exact: true }).fill('get_order')
  await tool.getByLabel('What it does').fill('The status of an order')
  await tool.getByLabel('URL').fill(`${api.url}/orders/{orderId}`)
  await tool.getByLabel('Headers').fill(`X-Api-Key: ${SECRET}`)
  await tool.getByLabel('Parameters').fill(JSON.stringify({ type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] }))
  await page.getByRole('button', { name: 'Add an MCP server' }).click()
  const axe = await new AxeBuilder({ page }).include('#agent-tools').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  expect(axe.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id)).toEqual([])
  // an MCP server without a name or URL is named in the error, and nothing is sent until it is fixed or removed
  await page.getByRole('button', { name: 'Create agent' }).click()
  await expect(page.locator('#agent-tools-error')).toContainText('Tool 2: name')
  await page.getByRole('button', { name: 'Remove MCP server' }).click()
  await page.getByRole('button', { name: 'Create agent' }).click()

  await expect(page).toHaveURL(/\/agents\/(?!new$)[^/]+$/)
  const id = page.url().split('/').pop()!
  const created = await (await request.get(`/api/agents/${id}`, { headers: auth })).json()
  expect(created.tools).toEqual([expect.objectContaining({ type: 'http', name: 'get_order', headers: { 'X-Api-Key': '********' } })])
  await expect(page.getByTestId('agent-tool').getByLabel('Headers')).toHaveValue('X-Api-Key: ********')

  await fakeModel(request, { toolCalls: [{ name: 'get_order', arguments: { orderId: 'A17' } }], replyFromTools: true, delayMs: 0 })
  await page.goto(`/playground?agent=${id}`)
  await page.getByLabel('Your question').fill('Where is my order A17?')
  await page.keyboard.press('Enter')

  const answer = page.getByTestId('assistant-message').last()
  await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  await expect(answer.getByTestId('answer-text')).toContainText('shipped on Tuesday')
  await expect(answer.getByTestId('answer-tool-call')).toContainText('get_order')
  expect(api.seen.at(-1)?.['x-api-key']).toBe(SECRET)
  await expect(page.locator('body')).not.toContainText(SECRET)
})

test('the "Connect an assistant" page gives the MCP endpoint and the configurations to paste', async ({ page, baseURL }) => {
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connect an assistant' }).click()

  await expect(page.getByRole('heading', { level: 1, name: 'Connect an AI assistant' })).toBeVisible()
  await expect(page.getByTestId('mcp-endpoint')).toHaveText(`${baseURL}/api/mcp`)
  await expect(page.getByTestId('assistant-cursor')).toContainText(`"url": "${baseURL}/api/mcp"`)
  await expect(page.getByTestId('assistant-claude-desktop')).toContainText('mcp-remote')
  await expect(page.getByTestId('assistant-inspector')).toContainText('--transport http')
})

test('the built-in actions are checkboxes of the agent form; request_human, called by the model, hands the conversation over', async ({ page, request }) => {
  await signIn(page)
  await page.goto('/agents/new')
  await page.getByLabel('Name', { exact: true }).fill(unique('Support agent'))
  await page.getByLabel('Hand over to a person').check()
  await page.getByLabel("Keep the customer's contact").check()
  await page.getByRole('button', { name: 'Create agent' }).click()

  await expect(page).toHaveURL(/\/agents\/(?!new$)[^/]+$/)
  const id = page.url().split('/').pop()!
  const created = await (await request.get(`/api/agents/${id}`, { headers: auth })).json()
  expect(created.tools).toEqual([{ type: 'request_human' }, { type: 'lead_capture' }])
  await expect(page.getByLabel('Hand over to a person')).toBeChecked()
  await expect(page.getByLabel('Mark conversations as resolved')).not.toBeChecked()

  await fakeModel(request, { toolCalls: [{ name: 'request_human', arguments: {} }], replyFromTools: true, delayMs: 0 })
  const asked = await (await request.post(`/api/agents/${id}/query`, { headers: auth, data: { query: 'A person, please' } })).json()
  expect(asked.answer).toContain('a person will reply')
  const conversation = await (await request.get(`/api/conversations/${asked.conversationId}`, { headers: auth })).json()
  expect(conversation.status).toBe('HUMAN_REQUESTED')
})
