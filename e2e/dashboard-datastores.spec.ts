import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createDatastore, makeDocx, makeFile, makePdf, startPageServer, unique, upsertText, waitUntilSynched } from './support/dashboard'

async function openDatastore(page: import('@playwright/test').Page, id: string) {
  await page.goto(`/datastores/${id}`)
  await expect(page.getByRole('heading', { name: 'Add content' })).toBeVisible()
}

test('a PDF and a DOCX dropped together upload with their own progress and reach synched in the table without a reload', async ({ page }) => {
  const storeName = unique('Handbooks')
  await signIn(page)
  await page.goto('/datastores')
  await page.getByRole('button', { name: 'New datastore' }).first().click()
  await page.getByRole('dialog').getByLabel('Name').fill(storeName)
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/datastores\/[^/]+$/)
  await expect(page.getByRole('heading', { level: 1, name: storeName })).toBeVisible()

  const pdf = await makePdf('kettle-manual.pdf', ['Aurora kettle manual', 'The descaling interval is every four weeks.'])
  const docx = await makeDocx('toaster-guide.docx', ['Borealis toaster guide', 'The crumb tray slides out from the back.'])
  // a marker that a reload would wipe
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true))

  await page.getByTestId('dropzone-input').setInputFiles([pdf, docx])

  const uploads = page.getByTestId('upload-item')
  await expect(uploads).toHaveCount(2)
  await expect(uploads.filter({ hasText: 'kettle-manual.pdf' })).toHaveAttribute('data-state', 'done')
  await expect(uploads.filter({ hasText: 'toaster-guide.docx' })).toHaveAttribute('data-state', 'done')

  const rows = page.getByTestId('datasource-row')
  await expect(rows.filter({ hasText: 'kettle-manual.pdf' })).toHaveAttribute('data-status', 'synched', { timeout: 60_000 })
  await expect(rows.filter({ hasText: 'toaster-guide.docx' })).toHaveAttribute('data-status', 'synched', { timeout: 60_000 })
  await expect(rows.filter({ hasText: 'kettle-manual.pdf' }).getByText('Synced')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
  // the table stops asking once nothing is syncing
  await expect(page.getByTestId('live-refresh')).toHaveCount(0)
  let polls = 0
  page.on('request', r => {
    if (r.url().includes('/datasources?')) polls++
  })
  await page.waitForTimeout(3500)
  expect(polls).toBe(0)
})

test('files of a refused type or size are refused before upload, with the accepted types shown', async ({ page, request }) => {
  const store = await createDatastore(request)
  await signIn(page)
  await openDatastore(page, store.id)
  await expect(
    page.getByText(/PDF, Word \(\.docx\), PowerPoint \(\.pptx\), Excel \(\.xlsx\), CSV, Markdown, plain text, JSON, HTML, images \(PNG, JPEG, WebP, TIFF: their text is recognised\)\. Up to 50 MB each/),
  ).toBeVisible()

  let uploads = 0
  page.on('request', r => {
    if (r.method() === 'POST' && r.url().endsWith('/api/datasources')) uploads++
  })
  const image = makeFile('photo.gif', Buffer.from('GIF89a'))
  const big = makeFile('huge.txt', Buffer.alloc(50 * 1024 * 1024 + 1, 'a'))
  const fine = makeFile('notes.md', '# Notes\n\nThe office opens at nine.')
  await page.getByTestId('dropzone-input').setInputFiles([image, big, fine])

  const items = page.getByTestId('upload-item')
  await expect(items.filter({ hasText: 'photo.gif' })).toHaveAttribute('data-state', 'refused')
  await expect(items.filter({ hasText: 'photo.gif' })).toContainText('Not an accepted type. Accepted: PDF, Word (.docx)')
  await expect(items.filter({ hasText: 'huge.txt' })).toHaveAttribute('data-state', 'refused')
  await expect(items.filter({ hasText: 'huge.txt' })).toContainText('Larger than 50 MB')
  await expect(items.filter({ hasText: 'notes.md' })).toHaveAttribute('data-state', 'done')
  expect(uploads).toBe(1)
  const list = await (await request.get(`/api/datastores/${store.id}/datasources`, { headers: auth })).json()
  expect(list.items.map((d: { name: string }) => d.name)).toEqual(['notes.md'])
})

test('a web page served by a local server is added by its address and synched', async ({ page, request }) => {
  const site = await startPageServer(
    '<!doctype html><html><head><title>Opening hours</title></head><body><main><h1>Opening hours</h1>' +
      '<p>The Lindenfeld bakery opens at six in the morning and closes at two in the afternoon, every day except Monday.</p>' +
      '<p>Fresh pretzels come out of the oven at seven.</p></main></body></html>',
  )
  try {
    const store = await createDatastore(request)
    await signIn(page)
    await openDatastore(page, store.id)
    await page.getByRole('tab', { name: 'Web page' }).click()
    await page.getByLabel('Page address').fill('not a url')
    await page.getByRole('button', { name: 'Add web page' }).click()
    await expect(page.getByText('This is not a web address')).toBeVisible()

    await page.getByLabel('Page address').fill(`${site.url}/hours`)
    await page.getByRole('button', { name: 'Add web page' }).click()
    const row = page.getByTestId('datasource-row').filter({ hasText: `${site.url}/hours` })
    await expect(row).toHaveAttribute('data-status', 'synched', { timeout: 60_000 })
    await expect(row).toContainText('Web page')
  } finally {
    await site.close()
  }
})

test('the search tester finds the fragment an agent would retrieve, with its score and datasource', async ({ page, request }) => {
  const store = await createDatastore(request)
  await upsertText(request, store.id, [
    { name: 'warranty.md', text: 'The Aurora kettle comes with a warranty of two years covering parts and labour.' },
    { name: 'delivery.md', text: 'Orders are delivered within three working days anywhere in the country.' },
  ])
  await waitUntilSynched(request, store.id, 2)
  await signIn(page)
  await openDatastore(page, store.id)
  await page.getByRole('tab', { name: 'Search tester' }).click()
  await page.getByLabel('Query').fill('kettle warranty')
  await page.getByLabel('Results (topK)').fill('1')
  await page.getByRole('button', { name: 'Search' }).click()

  const fragments = page.getByTestId('fragment')
  await expect(fragments).toHaveCount(1)
  await expect(fragments.first()).toContainText('warranty of two years')
  await expect(fragments.first()).toContainText('warranty.md')
  await expect(fragments.first()).toContainText(/score \d+\.\d{4}/)

  // a datasource filter narrows the search to the other document
  await page.getByLabel('Results (topK)').fill('5')
  await page.getByRole('checkbox', { name: 'delivery.md' }).click()
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(fragments.first()).toContainText('delivered within three working days')
  await expect(page.getByTestId('fragment').filter({ hasText: 'warranty.md' })).toHaveCount(0)
})

test('the datasources table filters by status and type, and shows why a datasource failed', async ({ page, request }) => {
  const store = await createDatastore(request)
  await upsertText(request, store.id, [{ name: 'good.txt', text: 'A perfectly readable document.' }])
  const broken = await request.post('/api/datasources', {
    headers: auth,
    multipart: { type: 'file', datastoreId: store.id, file: { name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is not a pdf') } },
  })
  expect(broken.status()).toBe(201)
  await expect
    .poll(async () => (await (await request.get(`/api/datastores/${store.id}/datasources?status=error`, { headers: auth })).json()).total, { timeout: 60_000 })
    .toBe(1)
  await waitUntilSynched(request, store.id, 1, { allowErrors: true })

  await signIn(page)
  await openDatastore(page, store.id)
  const rows = page.getByTestId('datasource-row')
  await expect(rows).toHaveCount(2)

  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'Error' }).click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('broken.pdf')
  await rows.first().getByRole('button', { name: /Error: show the reason/ }).click()
  await expect(page.getByTestId('datasource-error')).not.toBeEmpty()

  await page.getByRole('combobox', { name: 'Status' }).click()
  await page.getByRole('option', { name: 'All' }).click()
  await page.getByRole('combobox', { name: 'Type' }).click()
  await page.getByRole('option', { name: 'Text' }).click()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('good.txt')
})

test('a datasource is synced again from its row, and deleted from its row after confirming', async ({ page, request }) => {
  const store = await createDatastore(request)
  await upsertText(request, store.id, [{ name: 'faq.md', text: 'Frequently asked: the kettle holds 1.7 litres.' }])
  await waitUntilSynched(request, store.id, 1)
  await signIn(page)
  await openDatastore(page, store.id)
  const row = page.getByTestId('datasource-row').filter({ hasText: 'faq.md' })
  await expect(row).toHaveAttribute('data-status', 'synched')

  const synch = page.waitForResponse(r => r.url().endsWith('/synch') && r.request().method() === 'POST')
  await row.getByRole('button', { name: 'Sync faq.md again' }).click()
  expect((await synch).status()).toBe(200)
  await expect(page.getByText('Syncing “faq.md” again')).toBeVisible()
  await expect(row).toHaveAttribute('data-status', 'synched', { timeout: 60_000 })

  await row.getByRole('button', { name: 'Delete faq.md' }).click()
  await expect(page.getByRole('alertdialog')).toContainText('Delete “faq.md”?')
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByTestId('datasource-row')).toHaveCount(0)
  await expect(page.getByText('No content yet')).toBeVisible()
  const list = await (await request.get(`/api/datastores/${store.id}/datasources`, { headers: auth })).json()
  expect(list.total).toBe(0)
})
