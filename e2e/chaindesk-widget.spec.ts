import { expect, test, type Page, type Request } from '@playwright/test'
import { startWidgetSite } from './support/chaindesk-widget'
import { auth, createAgent, fakeModel } from './support/dashboard'

// Chaindesk's own chat widget, the unmodified npm bundle of @databerry/chat-bubble@1.0.142 (its useChat hook and
// fetch-event-source fork), embedded on a site of another origin, talking to this app (DESIGN.md §7).

// `100%`, `%20`, a blank line, an emoji and quotes: each broke the widget before (it decodes every payload)
const ANSWER_FIRST = 'Yes, 100% sure: "%20" stays %20, and \'quotes\' too 🎉'
const ANSWER_SECOND = 'The second paragraph.'
const REPLY = `${ANSWER_FIRST}\n\n${ANSWER_SECOND}`

test.afterEach(async ({ request }) => {
  await fakeModel(request, {})
})

/** The page of the site with the bubble, its queries to the app counted, nothing leaving the machine. */
async function openSite(page: Page, url: string, agentId: string) {
  const queries: Request[] = []
  // the widget's reads of its conversation, started and answered
  const reads = { started: 0, finished: 0 }
  const isRead = (r: Request) => r.method() === 'GET' && r.url().includes('/api/conversations/')
  page.on('request', r => {
    if (r.method() === 'POST' && r.url().includes(`/agents/${agentId}/query`)) queries.push(r)
    if (isRead(r)) reads.started++
  })
  page.on('requestfinished', r => void (isRead(r) && reads.finished++))
  page.on('requestfailed', r => void (isRead(r) && reads.finished++))
  // the widget asks Google Fonts and jsDelivr for a stylesheet: tests stay on the loopback
  await page.route(u => !['127.0.0.1', 'localhost'].includes(u.hostname), route => route.abort())
  await page.goto(url)
  const bubble = page.locator('chaindesk-chatbox-bubble')
  return { queries, bubble, reads }
}

async function ask(page: Page, bubble: ReturnType<Page['locator']>, question: string) {
  const textarea = bubble.locator('textarea').first()
  await textarea.fill(question)
  await textarea.press('Enter')
}

async function openBubble(bubble: ReturnType<Page['locator']>) {
  const textarea = bubble.locator('textarea').first()
  if (!(await textarea.isVisible())) await bubble.locator('.MuiAvatar-root').last().click()
  await expect(textarea).toBeVisible()
}

test("Chaindesk's widget on another site: a public agent answers, the conversation continues and reloads", async ({ browser, request, baseURL }) => {
  const site = await startWidgetSite(baseURL!)
  const agent = await createAgent(request, { visibility: 'public' })
  await fakeModel(request, { reply: REPLY, delayMs: 5 })
  const context = await browser.newContext()
  const page = await context.newPage()
  try {
    const { queries, bubble, reads } = await openSite(page, site.pageFor(agent.id), agent.id)
    await openBubble(bubble)

    await ask(page, bubble, 'Are you sure?')
    // (the widget adds a card of its own after an answer: the contact form of its "request a human" feature)
    const answer = bubble.locator('.message-agent').filter({ hasText: ANSWER_SECOND })
    await expect(answer).toHaveCount(1)
    // the exact text: the blank line makes two paragraphs, nothing else is touched
    expect(await answer.locator('p').allInnerTexts()).toEqual([ANSWER_FIRST, ANSWER_SECOND])
    expect(queries).toHaveLength(1)
    const first = queries[0].postDataJSON()
    expect(first).toMatchObject({ channel: 'website', streaming: true, query: 'Are you sure?' })
    expect(first.conversationId).toEqual(expect.any(String)) // minted by the widget: adopted
    expect((await queries[0].response())!.headers()['content-type']).toBe('text/event-stream')

    // the widget reads its conversation back once the first answer names it, and replaces what it shows with what
    // it read: a read still on its way when the next answer ends would hide that answer (the widget's own race)
    await expect.poll(() => reads.started).toBeGreaterThan(0)
    await expect.poll(() => reads.started - reads.finished).toBe(0)
    await fakeModel(request, { reply: 'Still sure.', delayMs: 5 })
    await ask(page, bubble, 'Really?')
    await expect(bubble.locator('.message-agent').filter({ hasText: 'Still sure.' })).toHaveCount(1)
    expect(queries).toHaveLength(2)
    const second = queries[1].postDataJSON()
    expect(second.conversationId).toBe(first.conversationId)
    expect(second.visitorId).toEqual(expect.any(String))

    const stored = await (await request.get(`/api/conversations/${first.conversationId}`, { headers: auth })).json()
    expect(stored.agentId).toBe(agent.id)
    expect(stored.messages.map((m: any) => [m.from, m.text])).toEqual([
      ['human', 'Are you sure?'],
      ['agent', REPLY],
      ['human', 'Really?'],
      ['agent', 'Still sure.'],
    ])

    // a reload shows the history, read back without a key
    await page.reload()
    await openBubble(bubble)
    await expect(bubble.locator('.message-human')).toHaveText(['Are you sure?', 'Really?'])
    await expect(bubble.locator('.message-agent').filter({ hasText: 'Still sure.' })).toHaveCount(1)
    expect(await bubble.locator('.message-agent').filter({ hasText: ANSWER_SECOND }).locator('p').allInnerTexts()).toEqual([ANSWER_FIRST, ANSWER_SECOND])
    expect(queries).toHaveLength(2)
  } finally {
    await context.close()
    await site.close()
  }
})

test("Chaindesk's widget and a private agent: one refused POST per question, no retry loop", async ({ browser, request, baseURL }) => {
  const site = await startWidgetSite(baseURL!)
  const agent = await createAgent(request, { visibility: 'private' })
  const context = await browser.newContext()
  const page = await context.newPage()
  try {
    const { queries, bubble } = await openSite(page, site.pageFor(agent.id), agent.id)
    await openBubble(bubble)
    const refused = page.waitForResponse(r => r.request().method() === 'POST' && r.url().includes(`/agents/${agent.id}/query`))
    await ask(page, bubble, 'Hello?')
    const res = await refused
    expect(res.status()).toBe(401) // the widget aborts the request at once: its JSON body is not kept
    // the widget's own handling of a 4xx: it stops (no answer, the question stays, the input is free again)
    await expect(bubble.locator('.message-human')).toHaveText(['Hello?'])
    await expect(bubble.locator('textarea').first()).toBeEditable()
    // the widget retries a failed stream every second (its fetch-event-source fork): three periods show none came
    await page.waitForTimeout(3_000)
    expect(queries).toHaveLength(1)
    await expect(bubble.locator('.message-agent')).toHaveCount(0)

    await ask(page, bubble, 'Anyone?')
    await expect(bubble.locator('.message-human')).toHaveText(['Hello?', 'Anyone?'])
    await page.waitForTimeout(3_000)
    expect(queries).toHaveLength(2)
  } finally {
    await context.close()
    await site.close()
  }
})

test("Chaindesk's and Databerry's paths answer over HTTP, and public routes answer preflights", async ({ request, baseURL }) => {
  const agent = await createAgent(request, { visibility: 'public' })
  await fakeModel(request, { reply: 'Via the alias.', delayMs: 1 })
  const viaAlias = await request.post(`/agents/${agent.id}/query`, { headers: auth, data: { query: 'Hi' } })
  expect(viaAlias.status()).toBe(200)
  expect((await viaAlias.json()).answer).toBe('Via the alias.')
  expect((await request.post(`/agents/query/${agent.id}`, { headers: auth, data: { query: 'Hi' } })).status()).toBe(200)

  const store = await (await request.post('/api/datastores', { headers: auth, data: { name: 'Zapier store' } })).json()
  for (const p of [`/datastores/query/${store.id}`, `/api/datastores/query/${store.id}`]) {
    const res = await request.post(p, { headers: auth, data: { query: 'anything' } })
    expect(res.status(), p).toBe(200)
    expect(Array.isArray(await res.json())).toBe(true)
  }
  const databerry = await request.post(`/query/${store.id}`, { headers: auth, data: { query: 'anything' } })
  expect(await databerry.json()).toEqual({ results: [] })
  expect((await request.get('/api/conversations', { headers: auth })).status()).toBe(200)
  // a browser's page load of /agents stays the dashboard (HTML), an API request gets JSON
  expect((await request.get(`/datastores/${store.id}`, { headers: auth })).headers()['content-type']).toContain('application/json')

  const preflight = await request.fetch(`${baseURL}/api/agents/${agent.id}/query`, {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  })
  expect(preflight.status()).toBe(204)
  expect(preflight.headers()['access-control-allow-origin']).toBe('*')
  const keyed = await request.fetch(`${baseURL}/api/datastores`, {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
  })
  expect(keyed.headers()['access-control-allow-origin']).toBeUndefined()
  const doc = await (await request.get('/api/openapi.json')).json()
  expect(doc.openapi).toBe('3.1.0')
  // the API reference page renders the document
  const reference = await request.get('/docs/api')
  expect(reference.status()).toBe(200)
  expect(await reference.text()).toContain('/agents/{id}/query')
})
