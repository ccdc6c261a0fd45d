import { expect, test, type Page } from '@playwright/test'
import { E2E_PORT, OIDC, OIDC_PORT } from '../playwright.config'
import { ADMIN } from './support/auth'
import { startOidcProvider } from './support/oidc-provider'

// Issue 24: single sign-on in Chromium against a real OpenID provider (oidc-provider) this spec starts on 127.0.0.1.
// The shared e2e server runs with OIDC_* pointing at it (playwright.config.ts): people of allowed.example come in
// as viewers; others are refused with a message on the sign-in page.

let provider: Awaited<ReturnType<typeof startOidcProvider>>

test.beforeAll(async () => {
  provider = await startOidcProvider(OIDC_PORT, { ...OIDC, redirectUri: `http://127.0.0.1:${E2E_PORT}/api/auth/callback/oidc` })
})

test.afterAll(async () => {
  await provider?.close()
})

/** From the sign-in page through the provider's login and consent, as a person would. */
async function signInWithProvider(page: Page, email: string) {
  await page.goto('/login')
  await page.getByRole('button', { name: `Sign in with ${OIDC.name}` }).click()
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${OIDC_PORT}/`))
  await page.locator('input[name="login"]').fill(email)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: /sign-in/i }).click()
  await page.getByRole('button', { name: /continue/i }).click()
}

test('a person of an allowed domain signs in with the provider and lands on the dashboard as a viewer', async ({ page }) => {
  await signInWithProvider(page, 'ada@allowed.example')
  await expect(page).toHaveURL(`http://127.0.0.1:${E2E_PORT}/agents`)
  await expect(page.getByTestId('signed-in-email').first()).toHaveText('ada@allowed.example')
  await page.goto('/account')
  await expect(page.getByTestId('account-role')).toHaveText('viewer')
  // the role holds on the API: a viewer cannot create a datastore
  const created = await page.evaluate(() => fetch('/api/datastores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' }).then(r => r.status))
  expect(created).toBe(403)
})

test("the sign-in is in the organization's audit log, with the client's address", async ({ page, request }) => {
  await signInWithProvider(page, 'alan@allowed.example')
  await expect(page).toHaveURL(`http://127.0.0.1:${E2E_PORT}/agents`)
  const res = await request.get('/api/audit-log?action=auth.sign_in&actor=alan%40allowed.example', { headers: { authorization: `Bearer ${ADMIN.apiKey}` } })
  const { items } = await res.json()
  expect(items).toHaveLength(1)
  expect(items[0]).toMatchObject({ action: 'auth.sign_in', target: { type: 'user', name: 'alan@allowed.example' }, clientAddress: '127.0.0.1' })
})

test('a person of another domain is refused, and the sign-in page says why', async ({ page }) => {
  await signInWithProvider(page, 'eve@elsewhere.example')
  await expect(page).toHaveURL(/\/login\?error=SsoNotAdmitted/)
  await expect(page.getByRole('alert').filter({ hasText: 'not admitted here' })).toContainText('ask an admin to invite you or to allow your email domain')
  await page.goto('/agents')
  await expect(page).toHaveURL(/\/login/)
})
