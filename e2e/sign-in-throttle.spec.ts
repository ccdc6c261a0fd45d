import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { hash } from '@node-rs/argon2'
import { expect, request as newRequest, test } from '@playwright/test'
import { THROTTLE_PORT } from '../playwright.config'
import { OwnServer } from './support/own-server'

// Issue 24: sign-in throttling over HTTP against the built server, on a server of its own (the shared one keeps its
// admin signing in). It runs behind a "proxy" (TRUST_PROXY=1), so each request names its client address in
// X-Forwarded-For. The window passing is the stored attempts set back, while the server is stopped.

const ADMIN = { email: 'owner@throttle.example', password: 'throttle-password-123' }
const OTHER = { email: 'colleague@throttle.example', password: 'colleague-password-123' }
const server = new OwnServer(THROTTLE_PORT, fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-throttle-')), {
  INIT_ADMIN_EMAIL: ADMIN.email,
  INIT_ADMIN_PASSWORD: ADMIN.password,
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
