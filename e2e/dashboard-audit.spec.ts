import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'

test('an admin gives a key one scope, the key is held to it, and the audit log shows who created it', async ({ page, request }) => {
  await signIn(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click()
  const name = `read-only key ${Date.now()}`
  await page.getByRole('button', { name: 'Create API key' }).click()
  await page.getByLabel('Name').fill(name)
  await page.getByLabel(/Read and search datastores/).check()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  const secret = await page.getByTestId('new-api-key-secret').inputValue()
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('api-key-row').filter({ hasText: name }).getByTestId('api-key-access')).toHaveText('datastores:read')

  const auth = { authorization: `Bearer ${secret}` }
  expect((await request.get('/api/datastores', { headers: auth })).status()).toBe(200)
  const refused = await request.post('/api/datastores', { headers: auth, data: { name: 'not allowed' } })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).error.code).toBe('forbidden')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click()
  await page.getByLabel('Action').fill('api_key.created')
  await page.getByRole('button', { name: 'Filter' }).click()
  const row = page.getByTestId('audit-row').filter({ hasText: name })
  await expect(row).toBeVisible()
  await expect(row).toContainText('admin@example.com')
})
