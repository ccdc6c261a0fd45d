import { expect, test } from '@playwright/test'
import { signIn } from './support/auth'
import { auth, createDatastore, makeFile } from './support/dashboard'

// Issue 26: a photo of a notice dropped on the dashboard is read by text recognition in the built server's worker,
// and the row says so.
test('a scanned page dropped as a PNG reaches synched, its row says its text was recognised, and a query finds it', async ({ page, context, request }) => {
  const scanner = await context.newPage()
  await scanner.setViewportSize({ width: 1000, height: 500 })
  await scanner.setContent(
    `<body style="margin:0;padding:48px;background:#fff;color:#111;font:26px/1.5 serif"><h1>Pool notice</h1>` +
      '<p>The Halcyon swimming pool closes for cleaning every Thursday morning.</p></body>',
  )
  const png = makeFile('pool-notice.png', await scanner.screenshot({ type: 'png' }))
  await scanner.close()

  const store = await createDatastore(request)
  await signIn(page)
  await page.goto(`/datastores/${store.id}`)
  await page.getByTestId('dropzone-input').setInputFiles([png])
  await expect(page.getByTestId('upload-item').filter({ hasText: 'pool-notice.png' })).toHaveAttribute('data-state', 'done')

  const row = page.getByTestId('datasource-row').filter({ hasText: 'pool-notice.png' })
  await expect(row).toHaveAttribute('data-status', 'synched', { timeout: 60_000 })
  await expect(row.getByTestId('datasource-ocr')).toHaveText('Text of 1 page recognised (OCR)')

  // opened: its chunk says its text was recognised; the extracted text says where that text is
  await row.getByTestId('datasource-name').click()
  const chunk = page.getByTestId('chunk')
  await expect(chunk.getByTestId('chunk-location')).toHaveText('Text recognised')
  await expect(chunk).toContainText('The Halcyon swimming pool closes for cleaning every Thursday morning.')
  await page.getByRole('tab', { name: 'Extracted text' }).click()
  await expect(page.getByText('Text recognised in images (OCR) is not read again here: it is in the chunks.')).toBeVisible()

  const res = await request.post(`/api/datastores/${store.id}/query`, { headers: auth, data: { query: 'When does the Halcyon pool close?' } })
  const [hit] = await res.json()
  expect(hit.text).toContain('The Halcyon swimming pool closes for cleaning every Thursday morning.')
})
