// The datastore page's settings and its text and web site forms, as a user meets them (components/datastores/
// datastore-settings.tsx, text-form.tsx, add-web-forms.tsx).
import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createDatastore, startPageServer, unique } from './support/dashboard'

async function openDatastore(page: import('@playwright/test').Page, id: string) {
  await page.goto(`/datastores/${id}`)
  await expect(page.getByRole('heading', { name: 'Add content' })).toBeVisible()
}

async function storedDatastore(request: import('@playwright/test').APIRequestContext, id: string) {
  return (await (await request.get(`/api/datastores/${id}`, { headers: auth })).json()) as { name: string; chunkSize: number; chunkOverlap: number }
}

test('the datastore settings refuse an overlap as large as the chunk size, then save the name and chunking', async ({ page, request }) => {
  const store = await createDatastore(request)
  const before = await storedDatastore(request, store.id)
  await signIn(page)
  await openDatastore(page, store.id)
  await page.getByRole('tab', { name: 'Settings' }).click()
  const settings = page.getByRole('tabpanel', { name: 'Settings', exact: true })

  await settings.getByLabel('Chunk size (tokens)').fill('300')
  await settings.getByLabel('Overlap (tokens)').fill('300')
  await settings.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Overlap must be smaller than the chunk size')).toBeVisible()
  expect(await storedDatastore(request, store.id)).toMatchObject({ chunkSize: before.chunkSize, chunkOverlap: before.chunkOverlap })

  const name = unique('Renamed')
  await settings.getByLabel('Name').fill(name)
  await settings.getByLabel('Overlap (tokens)').fill('30')
  await settings.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  await expect(page.getByText('Overlap must be smaller than the chunk size')).toHaveCount(0)
  expect(await storedDatastore(request, store.id)).toMatchObject({ name, chunkSize: 300, chunkOverlap: 30 })
})

test('pasted text is refused while empty, then added and listed with its name', async ({ page, request }) => {
  const store = await createDatastore(request)
  await signIn(page)
  await openDatastore(page, store.id)
  await page.getByRole('tab', { name: 'Text', exact: true }).click()
  const form = page.getByRole('tabpanel', { name: 'Text', exact: true })
  await form.getByRole('button', { name: 'Add text' }).click()
  await expect(page.getByText('Paste or type some text')).toBeVisible()

  await form.getByLabel('Name').fill('refund-policy.md')
  await form.getByLabel('Text', { exact: true }).fill('Refunds are paid within fourteen days of the return.')
  await form.getByRole('button', { name: 'Add text' }).click()
  await expect(page.getByText('Text added')).toBeVisible()
  await expect(page.getByTestId('datasource-row').filter({ hasText: 'refund-policy.md' })).toBeVisible()
  await expect(form.getByLabel('Text', { exact: true })).toHaveValue('')
})

test('a web site is added by its sitemap address, sent as the sitemap of its config', async ({ page, request }) => {
  const site = await startPageServer('<!doctype html><html><head><title>Bakery</title></head><body><main><p>Fresh bread daily.</p></main></body></html>')
  try {
    const store = await createDatastore(request)
    await signIn(page)
    await openDatastore(page, store.id)
    await page.getByRole('tab', { name: 'Web site' }).click()
    const form = page.getByRole('tabpanel', { name: 'Web site', exact: true })
    await form.getByRole('radio', { name: /A sitemap/ }).check()
    await form.getByLabel('Sitemap address').fill(`${site.url}/sitemap.xml`)
    const created = page.waitForRequest(r => r.url().endsWith('/api/datasources') && r.method() === 'POST')
    await form.getByRole('button', { name: 'Add web site' }).click()
    expect((await created).postDataJSON()).toMatchObject({ type: 'web_site', datastoreId: store.id, config: { sitemap: `${site.url}/sitemap.xml` } })
    await expect(page.getByText('Web site added')).toBeVisible()
    await expect(page.getByTestId('datasource-row').filter({ hasText: `${new URL(site.url).host}/sitemap.xml` })).toBeVisible()
  } finally {
    await site.close()
  }
})
