import { expect, test, type Page } from '@playwright/test'
import { ADMIN, signIn } from './support/auth'
import { auth, makeFile } from './support/dashboard'
import { MANUAL_NAME, mainPages, makeSupportData, type SupportData } from './support/realistic-data'

// Issue 15 on realistic data (30 datasources with long names and URLs): every main page fits a 390 px phone, a
// datasource opens to its chunks with their page numbers and its original, a duplicate upload is reported and not
// indexed twice, the upload panel follows each file to "Synced" or "Error", unsaved agent edits ask before leaving,
// a deep link survives signing in, the favicon exists and a skip link leads to the content.

let data: SupportData

test.beforeAll(async ({ request }) => {
  data = await makeSupportData(request, { count: 30 })
})

async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
}

test('every main page fits a 390 px phone without sideways scrolling, on 30 datasources with long names', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page)
  for (const [name, path] of mainPages(data)) {
    const res = await page.goto(path)
    // a page another part of the dashboard has not added (yet) is not this test's
    if (res?.status() === 404) continue
    await settle(page)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} (${path}) is wider than the screen`).toBeLessThanOrEqual(0)
  }
  // on the datastore page every row's status and delete button are on screen
  await page.goto(`/datastores/${data.datastoreId}`)
  await settle(page)
  const rows = page.getByTestId('datasource-row')
  await expect(rows).toHaveCount(30)
  for (const i of [0, 29]) {
    const row = rows.nth(i)
    await row.scrollIntoViewIfNeeded()
    const name = await row.getAttribute('data-name')
    for (const control of [row.locator('[data-status]').first(), row.getByRole('button', { name: `Delete ${name}` })]) {
      const box = (await control.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
    }
  }
})

test('a datasource opens to its chunks with their page numbers, its extracted text and its original', async ({ page, request }) => {
  await signIn(page)
  await page.goto(`/datastores/${data.datastoreId}`)
  await page.getByTestId('datasource-row').filter({ hasText: MANUAL_NAME }).getByRole('link', { name: MANUAL_NAME }).click()
  await expect(page).toHaveURL(new RegExp(`/datasources/${data.manualId}$`))
  await expect(page.getByRole('heading', { level: 1, name: MANUAL_NAME })).toBeVisible()
  const chunks = page.getByTestId('chunk')
  await expect(chunks).toHaveCount(2)
  await expect(chunks.nth(0).getByTestId('chunk-location')).toHaveText('Page 1')
  await expect(chunks.nth(1).getByTestId('chunk-location')).toHaveText('Page 2')
  await expect(chunks.nth(1)).toContainText('Descale the kettle every four weeks')

  await page.getByRole('tab', { name: 'Extracted text' }).click()
  await expect(page.getByRole('region', { name: 'Page 2' })).toContainText('white vinegar')

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download the original' }).click()
  expect((await download).suggestedFilename()).toBe(MANUAL_NAME)
  const original = await request.get(`/api/datasources/${data.manualId}/original`, { headers: auth })
  expect(original.headers()['content-type']).toBe('application/pdf')
  expect((await original.body()).subarray(0, 5).toString()).toBe('%PDF-')
})

test('a duplicate upload is reported in the panel and not indexed twice; the panel follows each file to Synced or Error', async ({ page, request }) => {
  const before = (await (await request.get(`/api/datastores/${data.datastoreId}`, { headers: auth })).json()) as { nbChunks: number; nbDatasources: number }
  const original = await request.get(`/api/datasources/${data.manualId}/original`, { headers: auth })
  const copy = makeFile('manual-copy.pdf', await original.body())
  const fresh = makeFile('Borealis_toaster_BT-4_quick_start_guide.md', '# Borealis toaster\n\nPress the lever down; the bagel button toasts one side only.')
  const broken = makeFile('Corrupted_invoice_scan_2025-01-07.pdf', '%PDF-1.7 this is not really a PDF')

  await signIn(page)
  await page.goto(`/datastores/${data.datastoreId}`)
  await page.getByTestId('dropzone-input').setInputFiles([copy, fresh, broken])
  const items = page.getByTestId('upload-item')
  await expect(items.filter({ hasText: 'manual-copy.pdf' })).toContainText(`Duplicate of “${MANUAL_NAME}”`)
  await expect(items.filter({ hasText: 'Borealis_toaster' })).toHaveAttribute('data-sync', 'synched', { timeout: 60_000 })
  await expect(items.filter({ hasText: 'Borealis_toaster' }).getByTestId('upload-status')).toHaveText('Synced')
  await expect(items.filter({ hasText: 'Corrupted_invoice' })).toHaveAttribute('data-sync', 'error', { timeout: 60_000 })
  await expect(items.filter({ hasText: 'Corrupted_invoice' }).getByTestId('upload-status')).toHaveText('Error')

  const after = (await (await request.get(`/api/datastores/${data.datastoreId}`, { headers: auth })).json()) as { nbChunks: number; nbDatasources: number }
  expect(after.nbDatasources).toBe(before.nbDatasources + 2)
  // the copy added nothing: only the new guide's chunk
  expect(after.nbChunks).toBe(before.nbChunks + 1)

  // the upload list scrolls within its box: the table stays near the top
  const list = (await page.getByTestId('upload-list').boundingBox())!
  expect(list.height).toBeLessThanOrEqual(220)

  // clean up what this test added, with the bulk bar and "retry all failed"
  await expect(page.getByRole('button', { name: /Retry all failed \(2\)/ })).toBeVisible()
  for (const name of ['Borealis_toaster_BT-4_quick_start_guide.md', 'Corrupted_invoice_scan_2025-01-07.pdf']) {
    await page.getByRole('checkbox', { name: `Select ${name}` }).check()
  }
  await expect(page.getByTestId('selection-bar')).toContainText('2 selected')
  await page.getByTestId('selection-bar').getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByTestId('datasource-row')).toHaveCount(30)
})

test('unsaved agent edits ask before leaving; cancelling keeps them', async ({ page }) => {
  await signIn(page)
  await page.goto(`/agents/${data.agentId}`)
  const name = page.getByLabel('Name', { exact: true })
  await expect(name).toHaveValue(data.agentName)
  await name.fill('Aurora support (draft)')
  const asked: string[] = []
  page.once('dialog', dialog => {
    asked.push(dialog.message())
    void dialog.dismiss()
  })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect.poll(() => asked.length).toBe(1)
  expect(asked[0]).toContain('unsaved changes')
  await expect(page).toHaveURL(new RegExp(`/agents/${data.agentId}$`))
  await expect(name).toHaveValue('Aurora support (draft)')

  page.once('dialog', dialog => void dialog.accept())
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datastores' }).click()
  await expect(page).toHaveURL(/\/datastores$/)
})

test('a deep link opened while signed out returns there after signing in', async ({ page }) => {
  const target = `/datastores/${data.datastoreId}/datasources/${data.manualId}`
  await page.goto(target)
  await expect(page).toHaveURL(/\/login\?callbackUrl=/)
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByLabel('Password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`${target}$`))
  await expect(page.getByRole('heading', { level: 1, name: MANUAL_NAME })).toBeVisible()
})

test('the favicon is served, and a skip link leads past the navigation to the content', async ({ page, request }) => {
  const icon = await request.get('/favicon.ico')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toMatch(/image/)
  await signIn(page)
  await page.goto('/datastores')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main-content')).toBeFocused()
})
