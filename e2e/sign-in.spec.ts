import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { hash } from '@node-rs/argon2'
import { expect, request as newRequest, test } from '@playwright/test'
import { THROTTLE_PORT } from '../playwright.config'
import { OwnServer } from './support/own-server'

// Issue 24: sign-in throttling, password change and reset links, over HTTP and in Chromium against the built server,
// on a server of its own (the shared one keeps its admin signing in with the same password). It runs behind a "proxy" (TRUST_PROXY=1), so each request names its client address in
// X-Forwarded-For. The window passing is the stored attempts set back, while the server is stopped.

const ADMIN = { email: 'owner@throttle.example', password: 'throttle-password-123' }
const OTHER = { email: 'colleague@throttle.example', password: 'colleague-password-123' }
const server = new OwnServer(THROTTLE_PORT, fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-throttle-')), {
  INIT_ADMIN_EMAIL: ADMIN.email,
  INIT_ADMIN_PASSWORD: ADMIN.password,
  INIT_API_KEY: 'ads_e2e_throttle_key_0123456789',
  TRUST_PROXY: '1',
})

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  // the first start makes the organization and its owner; a colleague is added while the server is stopped
  await server.start()
  await server.stop()
  const passwordHash = await hash(OTHER.password)
  await server.withDatabase(async db => {
    const [{ id: org }] = (await db.query<{ id: string }>('SELECT id FROM "Organization" LIMIT 1')).rows
    await db.query(`INSERT INTO "User" (id, email, "passwordHash", "updatedAt") VALUES ('colleague', $1, $2, now())`, [OTHER.email, passwordHash])
    await db.query(`INSERT INTO "Membership" (id, "organizationId", "userId", role) VALUES ('colleague-membership', $1, 'colleague', 'editor')`, [org])
  })
  await server.start()
})

test.afterAll(async () => {
  await server.stop()
})

/** Posts the sign-in form as the browser does, from `address`: the status, the redirect's error, a session cookie. */
async function signIn(address: string, email: string, password: string) {
  const context = await newRequest.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': address } })
  const { csrfToken } = await (await context.get('/api/auth/csrf')).json()
  const res = await context.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, json: 'true' }, maxRedirects: 0 })
  const { url } = await res.json()
  const session = (await context.storageState()).cookies.some(c => c.name.endsWith('next-auth.session-token'))
  await context.dispose()
  return { status: res.status(), error: new URL(url, server.url).searchParams.get('error'), session }
}

test('30 wrong passwords, then the right one is refused with no session, saying when to retry', async () => {
  for (let i = 0; i < 30; i++) expect((await signIn('198.51.100.7', ADMIN.email, `wrong ${i}`)).session).toBe(false)
  const refused = await signIn('198.51.100.7', ADMIN.email, ADMIN.password)
  expect(refused.status).toBe(401)
  expect(refused.session).toBe(false)
  expect(refused.error).toMatch(/^SignInThrottled:\d{4}-\d\d-\d\dT/)
  const retryAt = Date.parse(refused.error!.split(/:(.+)/)[1])
  expect(retryAt).toBeGreaterThan(Date.now() + 14 * 60_000)
  // from another address too: the account is what is refused
  expect((await signIn('198.51.100.8', ADMIN.email, ADMIN.password)).session).toBe(false)
})

test('another account signs in meanwhile', async () => {
  const other = await signIn('198.51.100.9', OTHER.email, OTHER.password)
  expect(other).toMatchObject({ session: true, error: null })
})

test("an admin's reset link sets the colleague's password once, on the page it opens", async ({ page, request }) => {
  const res = await request.post(`${server.url}/api/members/colleague/password-reset`, { headers: { authorization: 'Bearer ads_e2e_throttle_key_0123456789' } })
  expect(res.status()).toBe(201)
  const { url } = await res.json()
  expect(url).toMatch(new RegExp(`^${server.url}/reset-password/[\\w-]{43}$`))
  await page.goto(url)
  await page.getByLabel('New password').fill('colleague-reset-456')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByRole('status')).toContainText(`The password of ${OTHER.email} is set`)
  expect((await signIn('198.51.100.10', OTHER.email, 'colleague-reset-456')).session).toBe(true)
  expect((await signIn('198.51.100.10', OTHER.email, OTHER.password)).session).toBe(false)
  // a second use
  await page.goto(url)
  await page.getByLabel('New password').fill('yet-another-789')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'not found' })).toContainText('unknown, used or expired')
  OTHER.password = 'colleague-reset-456'
})

test('the colleague changes their password on the Account page; a session from before ends', async ({ page }) => {
  const before = await newRequest.newContext({ baseURL: server.url, extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.11' } })
  const { csrfToken } = await (await before.get('/api/auth/csrf')).json()
  await before.post('/api/auth/callback/credentials', { form: { csrfToken, email: OTHER.email, password: OTHER.password, json: 'true' }, maxRedirects: 0 })
  expect((await before.get('/api/account')).status()).toBe(200)

  await page.goto(`${server.url}/login`)
  await page.getByLabel('Email').fill(OTHER.email)
  await page.getByLabel('Password').fill(OTHER.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/agents/)
  await page.goto(`${server.url}/account`)
  await expect(page.getByTestId('account-role')).toHaveText('editor')
  await page.getByLabel('Current password').fill('not my password')
  await page.getByLabel('New password').fill('colleague-changed-789')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'current password is wrong' })).toBeVisible()
  await page.getByLabel('Current password').fill(OTHER.password)
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Password changed')).toBeVisible()
  // this browser was signed in again with the new password; the other session ended
  await page.reload()
  await expect(page.getByTestId('account-role')).toHaveText('editor')
  expect((await before.get('/api/account')).status()).toBe(401)
  await before.dispose()
})

test('the sign-in page says when to try again', async ({ page }) => {
  await page.goto(`${server.url}/login`)
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByLabel('Password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Too many attempts' })).toHaveText(/Too many attempts, try again after \d\d:\d\d\./)
  await expect(page).toHaveURL(/\/login/)
})

test('once the window has passed, the right password signs in again', async () => {
  await server.stop()
  await server.withDatabase(db => db.query(`UPDATE "SignInAttempt" SET "createdAt" = "createdAt" - interval '16 minutes' WHERE email = $1`, [ADMIN.email]))
  await server.start()
  expect(await signIn('198.51.100.7', ADMIN.email, ADMIN.password)).toMatchObject({ session: true, error: null })
})
