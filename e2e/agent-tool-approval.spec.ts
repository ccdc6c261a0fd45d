import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createAgent, fakeModel, unique } from './support/dashboard'

// A tool that requires approval (issue 25, Chaindesk's approvals), in Chromium: a visitor of a public agent asks, the
// model calls the guarded tool, the visitor is told it waits; the operator finds the call in the inbox, approves it,
// the tool is called and the agent's answer, using its result, appears in the conversation.

let api: { url: string; seen: string[]; close: () => Promise<void> }

test.beforeAll(async () => {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', c => (body += c))
    req.on('end', () => {
      seen.push(body)
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ refund: 'RF-88', status: 'refunded' }))
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise(r => server.close(() => r())) }
})
test.afterAll(async () => api.close())
test.afterEach(async ({ request }) => fakeModel(request, {}))

const refundTool = () => ({
  type: 'http',
  name: 'refund_order',
  description: 'Refunds an order',
  method: 'POST',
  url: `${api.url}/refunds`,
  parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
  requiresApproval: true,
})

test('the operator approves a waiting tool call in the inbox, and the answer appears in the conversation', async ({ page, request }) => {
  const agent = await createAgent(request, { name: unique('Refund agent'), visibility: 'public', tools: [refundTool()] })
  await fakeModel(request, { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-42' } }], replyFromTools: true, delayMs: 0 })
  const question = unique('Please refund my order A-42')

  const asked = await request.post(`/api/agents/${agent.id}/query`, { data: { query: question } })
  expect(asked.status(), await asked.text()).toBe(200)
  const { answer, conversationId } = await asked.json()
  expect(answer).toContain("needs an operator's approval")
  expect(api.seen).toHaveLength(0)

  await signIn(page)
  await page.goto('/conversations')
  await page.getByTestId('conversation-item').filter({ hasText: question }).click()
  const approval = page.getByTestId('tool-approval')
  await expect(approval).toHaveAttribute('data-status', 'pending')
  await expect(approval).toContainText('refund_order')
  await expect(approval).toContainText('A-42')
  await approval.getByRole('button', { name: 'Approve' }).click()

  await expect(approval).toHaveAttribute('data-status', 'approved')
  await expect(page.getByTestId('assistant-message').filter({ hasText: 'RF-88' })).toBeVisible()
  expect(JSON.parse(api.seen[0])).toEqual({ orderId: 'A-42' })
  // the visitor reads the answer in the conversation, as the widget fetches it
  const seen = await (await request.get(`/api/conversations/${conversationId}`)).json()
  expect(seen.messages.filter((m: { from: string }) => m.from === 'agent').at(-1).text).toContain('RF-88')
})

test("the visitor's chat shows the answer after the operator's decision without a reload", async ({ browser, request }) => {
  const agent = await createAgent(request, { name: unique('Refund agent'), visibility: 'public', tools: [refundTool()] })
  await fakeModel(request, { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'B-7' } }], replyFromTools: true, delayMs: 0 })
  const visitor = await (await browser.newContext()).newPage()
  try {
    await visitor.goto(`/chat/${agent.id}`)
    await visitor.getByLabel('Your question').fill(unique('Please refund my order B-7'))
    await visitor.getByLabel('Your question').press('Enter')
    await expect(visitor.getByTestId('assistant-message').filter({ hasText: "needs an operator's approval" })).toBeVisible()
    const conversations = await (await request.get(`/api/agents/${agent.id}/conversations`, { headers: auth })).json()
    const conversationId = conversations[0].id
    const [pending] = (await (await request.get(`/api/conversations/${conversationId}/approvals`, { headers: auth })).json()).items

    const decided = await request.post(`/api/conversations/${conversationId}/approvals/${pending.id}`, { headers: auth, data: { decision: 'approve' } })
    expect(decided.status(), await decided.text()).toBe(200)

    // the chat looks again while the action waits: the answer appears where the notice is, no reload
    await expect(visitor.getByTestId('assistant-message').filter({ hasText: 'RF-88' })).toBeVisible()
    await expect(visitor.getByTestId('assistant-message').filter({ hasText: "needs an operator's approval" })).toBeVisible()
  } finally {
    await visitor.context().close()
  }
})
