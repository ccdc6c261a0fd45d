import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'

test('an admin creates an API key in the dashboard, uses it, revokes it, and the key stops working', async ({ page, request }) => {
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click()
  await expect(page).toHaveURL(/\/api-keys/)

  const name = `e2e key ${Date.now()}`
  await page.getByRole('button', { name: 'Create API key' }).click()
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  const secretField = page.getByTestId('new-api-key-secret')
  await expect(secretField).toHaveValue(/^ads_/)
  const secret = await secretField.inputValue()
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('api-key-row').filter({ hasText: name })).toBeVisible()

  const ok = await request.get('/api/datastores', { headers: { authorization: `Bearer ${secret}` } })
  expect(ok.status()).toBe(200)
  expect(Array.isArray(await ok.json())).toBe(true)

  await page.getByRole('button', { name: `Revoke ${name}` }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByRole('alertdialog')).toBeHidden()
  await expect(page.getByTestId('api-key-row').filter({ hasText: name })).toHaveCount(0)

  const refused = await request.get('/api/datastores', { headers: { authorization: `Bearer ${secret}` } })
  expect(refused.status()).toBe(401)
  expect((await refused.json()).error.code).toBe('unauthorized')
})

test('signing out ends the session', async ({ page }) => {
  await signIn(page)
  await expect(page.getByTestId('signed-in-email')).toHaveText('admin@example.com')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/login/)
  await page.goto('/api-keys')
  await expect(page).toHaveURL(/\/login/)
  const res = await page.request.get('/api/api-keys')
  expect(res.status()).toBe(401)
})

test('the API without a key answers 401 with the JSON error body, and unknown paths a JSON 404', async ({ request }) => {
  const res = await request.get('/api/datastores')
  expect(res.status()).toBe(401)
  expect((await res.json()).error).toMatchObject({ code: 'unauthorized' })
  const missing = await request.get('/api/no/such/thing')
  expect(missing.status()).toBe(404)
  expect((await missing.json()).error.code).toBe('not_found')
  const health = await request.get('/api/health')
  expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' })
})
