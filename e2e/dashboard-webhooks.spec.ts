import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { ADMIN, signIn } from './support/auth'

// README "Schedules and webhooks": an endpoint added in the dashboard gets signed deliveries; a failed one shows its
// response code and is sent again from the dashboard.
test('an admin adds a webhook, sees a failed delivery with its response code, and sends it again', async ({ page, request }) => {
  const statuses = [500]
  const received: { signature: string; body: string }[] = []
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      received.push({ signature: String(req.headers['x-webhook-signature']), body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(statuses.shift() ?? 200).end()
    })
  })
  await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  try {
    await signIn(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click()
    await expect(page).toHaveURL(/\/webhooks/)
    await page.getByRole('button', { name: 'Add webhook' }).click()
    await page.getByLabel('Receiver URL').fill(url)
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    const secretField = page.getByTestId('new-webhook-secret')
    await expect(secretField).toHaveValue(/^whsec_/)
    const secret = await secretField.inputValue()
    await page.getByRole('button', { name: 'Done' }).click()
    const row = page.getByTestId('webhook-row').filter({ hasText: url })
    await expect(row).toBeVisible()

    const auth = { authorization: `Bearer ${ADMIN.apiKey}` }
    const store = await (await request.post('/api/datastores', { headers: auth, data: { name: `webhooks ${Date.now()}` } })).json()
    await request.post(`/api/datastores/upsert/${store.id}`, { headers: auth, data: { documents: [{ text: 'The kettle warranty is two years.' }] } })

    await row.getByRole('button', { name: url, exact: true }).click()
    const delivery = page.getByTestId('webhook-delivery').first()
    await expect(delivery).toContainText('HTTP 500')
    await expect(delivery).toHaveAttribute('data-status', 'pending')
    await delivery.getByRole('button', { name: /Send .* again/ }).click()
    await expect(delivery).toHaveAttribute('data-status', 'delivered')
    await expect(delivery).toContainText('HTTP 200')

    const last = received[received.length - 1]
    const [t, v1] = last.signature.split(',').map(part => part.split('=')[1])
    expect(crypto.createHmac('sha256', secret).update(`${t}.${last.body}`).digest('hex')).toBe(v1)
    expect(JSON.parse(last.body)).toMatchObject({ type: 'datasource.synched', data: { datastoreId: store.id } })
  } finally {
    receiver.close()
  }
})
