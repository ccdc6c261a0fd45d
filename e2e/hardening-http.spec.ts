import net from 'node:net'
import { expect, request as newRequest, test, type APIRequestContext } from '@playwright/test'
import { ADMIN } from './support/auth'
import { auth, createAgent, createDatastore } from './support/dashboard'
import { responses } from '../tests/helpers/raw-http'

// Issue 22, the defects that only show over HTTP against the built server (points 4, 5, 6): the sign-in redirect,
// sessions and framing, and the body limits as Next's proxy lets them through.

const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3005}`
const MB = 1024 * 1024

/** A request context signed in to the dashboard through next-auth's own endpoints (as the login form does). */
async function signedIn(): Promise<APIRequestContext> {
  const context = await newRequest.newContext({ baseURL: BASE })
  const { csrfToken } = await (await context.get('/api/auth/csrf')).json()
  const res = await context.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: ADMIN.email, password: ADMIN.password, json: 'true' },
    maxRedirects: 0,
  })
  expect(res.status(), await res.text()).toBeLessThan(400)
  expect((await context.storageState()).cookies.some(c => c.name.endsWith('next-auth.session-token'))).toBe(true)
  return context
}

async function sessionCookie(context: APIRequestContext): Promise<string> {
  const { cookies } = await context.storageState()
  return cookies.filter(c => c.name.includes('next-auth.session-token')).map(c => `${c.name}=${c.value}`).join('; ')
}

test.describe('the sign-in redirect (point 4)', () => {
  const hostile = ['%2F%09%2Fother-host%2Fpage', '%2F%0A%2Fother-host', '%2F%0D%0ALocation:%20http://evil.example', '//evil.example/x', '%2F%5Cevil.example', 'https://evil.example/', 'javascript:alert(1)', '%2F%2F%2Fevil.example', '%00', '%E0%A4%A', '/login?callbackUrl=//evil.example']

  test('a signed-in user is sent to a path of this site only, whatever callbackUrl says', async () => {
    const context = await signedIn()
    for (const value of hostile) {
      const res = await context.get(`/login?callbackUrl=${value}`, { maxRedirects: 0 })
      expect(res.status(), value).toBeLessThan(500)
      const location = res.headers()['location']
      expect(location, value).toBeDefined()
      expect(location, value).not.toMatch(/[\u0000-\u001f\\]/)
      expect(new URL(location, BASE).origin, value).toBe(BASE)
      expect(location.startsWith('//'), value).toBe(false)
    }
    const fine = await context.get('/login?callbackUrl=%2Fdatastores%3Ftab%3D1', { maxRedirects: 0 })
    expect(fine.headers()['location']).toBe('/datastores?tab=1')
    await context.dispose()
  })

  test('no query string makes the login page or a dashboard page answer 5xx', async ({ request }) => {
    const context = await signedIn()
    const pages = ['/login', '/agents', '/datastores', '/conversations', '/playground', '/usage', '/docs/api', '/chat/unknown-agent', '/']
    const queries = ['callbackUrl=%0A', 'callbackUrl=%0D', 'callbackUrl=%00', 'callbackUrl=%', 'callbackUrl=%E0%A4%A', 'callbackUrl[]=x&callbackUrl=y', 'cursor=%FF', 'q=' + 'a'.repeat(8000), 'agentId=%0A&page=-1', 'from=2026-13-45&to=x', 'tab=%3Cscript%3E', '%%%', '&&&==', 'callbackUrl=%2F%09%2Fx']
    for (const client of [request, context]) {
      for (const page of pages) {
        for (const query of queries) {
          const res = await client.get(`${page}?${query}`, { maxRedirects: 0 })
          expect(res.status(), `${page}?${query}`).toBeLessThan(500)
        }
      }
    }
    await context.dispose()
  })
})

test.describe('sessions and framing (point 5)', () => {
  test('signing out ends the session: the old cookie no longer reads the API', async () => {
    const context = await signedIn()
    const cookie = await sessionCookie(context)
    expect((await context.get('/api/api-keys')).status()).toBe(200)
    const { csrfToken } = await (await context.get('/api/auth/csrf')).json()
    await context.post('/api/auth/signout', { form: { csrfToken, json: 'true' }, maxRedirects: 0 })
    const replay = await newRequest.newContext({ baseURL: BASE, extraHTTPHeaders: { cookie } })
    expect((await replay.get('/api/api-keys')).status()).toBe(401)
    const page = await replay.get('/agents', { maxRedirects: 0 })
    expect(await page.text()).not.toContain('signed-in-email')
    await replay.dispose()
    await context.dispose()
  })

  test('the dashboard and the login page may be framed by this site only', async ({ request }) => {
    for (const path of ['/login', '/agents', '/docs/api']) {
      const res = await request.get(path, { maxRedirects: 0 })
      expect(res.headers()['x-frame-options'], path).toBe('SAMEORIGIN')
      expect(res.headers()['content-security-policy'], path).toContain("frame-ancestors 'self'")
    }
  })

  test("the public chat page keeps its agent's own frame-ancestors and no X-Frame-Options", async ({ request }) => {
    const agent = await createAgent(request, { visibility: 'public', allowedDomains: ['shop.example.com'] })
    const res = await request.get(`/chat/${agent.id}`)
    expect(res.status()).toBe(200)
    expect(res.headers()['x-frame-options']).toBeUndefined()
    expect(res.headers()['content-security-policy']).toContain('shop.example.com')
    // the agent's policy alone, not the dashboard's added to it
    expect(res.headers()['content-security-policy'].match(/frame-ancestors/g)).toHaveLength(1)
  })

  test('signing in takes as long for an unknown account as for a known one', async ({ request }) => {
    const timeSignIn = async (email: string) => {
      const context = await newRequest.newContext({ baseURL: BASE })
      const { csrfToken } = await (await context.get('/api/auth/csrf')).json()
      const started = performance.now()
      await context.post('/api/auth/callback/credentials', { form: { csrfToken, email, password: 'not-the-password', json: 'true' }, maxRedirects: 0 })
      const took = performance.now() - started
      await context.dispose()
      return took
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 7; i++) {
      known.push(await timeSignIn(ADMIN.email))
      unknown.push(await timeSignIn(`nobody-${i}@example.com`))
    }
    // a password check (argon2) is most of a known account's time; an unknown one must pay it too
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.7)
    void request
  })
})

/** A raw POST over node:http, chunked (no Content-Length) when asked: what a streaming client sends. */
/**
 * Posts `body` whole on a raw connection, as a naive client does even after an early answer (a 413), then asks for
 * /api/health on the same connection: the first answer, with no reset overtaking it and the connection still usable.
 */
async function rawPost(path: string, headers: Record<string, string>, body: Buffer, { chunked = false } = {}): Promise<{ status: number; text: string }> {
  const url = new URL(path, BASE)
  const socket = net.connect(Number(url.port), url.hostname)
  const received = responses(socket)
  const framing = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }
  const head = Object.entries({ host: url.host, ...headers, ...framing }).map(([name, value]) => `${name}: ${value}\r\n`)
  const write = (data: string | Buffer) => new Promise<void>((resolve, reject) => socket.write(data, error => (error ? reject(error) : resolve())))
  try {
    await write(`POST ${url.pathname} HTTP/1.1\r\n${head.join('')}\r\n`)
    const step = 256 * 1024
    for (let offset = 0; offset < body.length; offset += step) {
      const piece = body.subarray(offset, offset + step)
      await write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece)
    }
    await write(`${chunked ? '0\r\n\r\n' : ''}GET /api/health HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`)
    const answer = await received.next()
    const health = await received.next()
    expect(health.status, 'the same connection answers the next request').toBe(200)
    return { status: answer.status, text: answer.body }
  } finally {
    socket.destroy()
  }
}

function multipartBody(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = `----e2e${Date.now()}`
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`))
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

test.describe('body limits as documented (point 6: 20 MB JSON, 50 MB files)', () => {
  test('a 12 MB JSON body arrives whole: it is validated, not "not valid JSON"', async ({ request }) => {
    const res = await request.post('/api/agents', { headers: auth, data: { name: 'x'.repeat(12 * MB) } })
    expect(res.status()).toBe(400)
    const { error } = await res.json()
    expect(error.message).not.toContain('not valid JSON')
    expect(error.details[0].path).toBe('name')
  })

  test('a JSON body over LIMIT_BODY_SIZE_MB is a 413, chunked or not', async () => {
    const big = Buffer.from(JSON.stringify({ name: 'x'.repeat(25 * MB) }))
    for (const chunked of [false, true]) {
      const res = await rawPost('/api/agents', { ...auth, 'content-type': 'application/json' }, big, { chunked })
      expect(res.status, `chunked: ${chunked}`).toBe(413)
      expect(JSON.parse(res.text).error.code).toBe('payload_too_large')
    }
  })

  test('a 15 MB file uploads; a 60 MB one is a 413, chunked or not', async ({ request }) => {
    const store = await createDatastore(request)
    const fifteen = multipartBody({ type: 'file', datastoreId: store.id }, { name: 'big.pdf', type: 'application/pdf', bytes: Buffer.alloc(15 * MB, 'not a pdf ') })
    const ok = await rawPost('/api/datasources', { ...auth, 'content-type': fifteen.contentType }, fifteen.body)
    expect(ok.status, ok.text).toBe(201)
    const created = JSON.parse(ok.text)
    expect(created.config.size).toBe(15 * MB)
    await request.delete(`/api/datasources/${created.id}`, { headers: auth })

    const sixty = multipartBody({ type: 'file', datastoreId: store.id }, { name: 'huge.txt', type: 'text/plain', bytes: Buffer.alloc(60 * MB, 'lorem ipsum ') })
    for (const chunked of [false, true]) {
      const res = await rawPost('/api/datasources', { ...auth, 'content-type': sixty.contentType }, sixty.body, { chunked })
      expect(res.status, `chunked: ${chunked}`).toBe(413)
      expect(JSON.parse(res.text).error.code).toBe('payload_too_large')
    }
  })
})

test.describe('the smaller defects of a first week (point 10)', () => {
  test('the datastore page passes axe target-size and label-content-name-mismatch, and the search tester says "Nothing relevant"', async ({ page, request }) => {
    const { signIn } = await import('./support/auth')
    const { upsertText, waitUntilSynched } = await import('./support/dashboard')
    const AxeBuilder = (await import('@axe-core/playwright')).default
    const store = await createDatastore(request)
    await upsertText(request, store.id, [
      { name: 'warranty.md', text: 'The Zephyr kettle carries a warranty of two years from the date of purchase.' },
      { name: 'internal.md', text: 'Internal: the staff cafeteria door code is 4711.' },
    ])
    const broken = await request.post('/api/datasources', {
      headers: auth,
      multipart: { type: 'file', datastoreId: store.id, file: { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is not a pdf') } },
    })
    expect(broken.status()).toBe(201)
    await waitUntilSynched(request, store.id, 2, { allowErrors: true })
    const brokenId = (await broken.json()).id
    await expect.poll(async () => (await (await request.get(`/api/datasources/${brokenId}`, { headers: auth })).json()).status, { timeout: 60_000 }).toBe('error')
    await signIn(page)
    await page.goto(`/datastores/${store.id}`)
    await expect(page.getByTestId('datasource-name')).toHaveCount(3)
    const results = await new AxeBuilder({ page }).withRules(['target-size', 'label-content-name-mismatch']).analyze()
    expect(results.violations.map(v => ({ id: v.id, nodes: v.nodes.map(n => n.html.slice(0, 300)) }))).toEqual([])

    await page.getByRole('tab', { name: 'Search tester' }).click()
    await page.getByLabel('Query').fill('Do you sell espresso machines?')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByTestId('nothing-relevant')).toContainText('Nothing relevant')
    await page.getByLabel('Query').fill('How long is the Zephyr kettle warranty?')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByTestId('fragment').first()).toContainText('warranty of two years')
    await expect(page.getByTestId('nothing-relevant')).toHaveCount(0)
  })

  test('/docs/api is linked from the dashboard, fits a phone and cites no spec sections', async ({ page }) => {
    const { signIn } = await import('./support/auth')
    await signIn(page)
    await page.getByRole('link', { name: 'API reference' }).first().click()
    await expect(page).toHaveURL(/\/docs\/api$/)
    await page.setViewportSize({ width: 390, height: 800 })
    await page.reload()
    for (const details of await page.locator('details').all()) await details.evaluate(d => ((d as HTMLDetailsElement).open = true))
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    expect(await page.locator('main').innerText()).not.toMatch(/spec §/)
  })
})

test('the playground lists past conversations by their first question and reopens one', async ({ page, request }) => {
  const { signIn } = await import('./support/auth')
  const { fakeModel } = await import('./support/dashboard')
  const agent = await createAgent(request, { name: `Playground history ${Date.now()}` })
  await fakeModel(request, { reply: 'The warranty is two years.', delayMs: 5 })
  await signIn(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/playground?agent=${agent.id}`)
  await page.getByLabel('Your question').fill('How long is the warranty?')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('assistant-message').last()).toHaveAttribute('data-status', 'done')
  // the thread is named by its first question, not by its id
  await expect(page.getByTestId('conversation-state')).toHaveText('How long is the warranty?')
  await expect(page.getByTestId('past-conversations').getByRole('button', { name: /How long is the warranty\?/ })).toBeVisible()

  await page.getByRole('button', { name: 'New conversation' }).click()
  await expect(page.getByTestId('assistant-message')).toHaveCount(0)
  await page.getByTestId('past-conversations').getByRole('button', { name: /How long is the warranty\?/ }).click()
  await expect(page.getByTestId('assistant-message')).toHaveCount(1)
  await expect(page.getByTestId('assistant-message')).toContainText('The warranty is two years.')
  await expect(page.getByTestId('conversation-state')).toHaveText('How long is the warranty?')
})
