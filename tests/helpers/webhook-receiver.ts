import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect } from 'vitest'
import * as webhooks from '@/app/api/webhooks/route'
import { call } from './http'
import type { TestTenant } from './tenants'

/**
 * Webhook receivers on 127.0.0.1 for this test file: `subscribedReceiver(tenant, events)` starts one, subscribes the
 * tenant to `events` there and returns what it receives and the subscription's secret; each is closed after its test.
 */
export function useWebhookReceivers() {
  const closers: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
    delete process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS
  })
  return async function subscribedReceiver(tenant: TestTenant, events: string[]) {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = []
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', c => chunks.push(c))
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise(resolve => server.close(() => resolve())))
    process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '1'
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
    const res = await call(webhooks.POST, '/api/webhooks', { method: 'POST', headers: tenant.headers, body: { url, events } })
    expect(res.status, res.text).toBe(201)
    return { received, secret: res.json.secret as string }
  }
}
