import { afterEach, describe, expect, test } from 'vitest'
import { trustHostsForTests } from '@/lib/ingest/web/address-policy'
import { safeFetch } from '@/lib/ingest/web/fetcher'
import { sendWebhook } from '@/lib/ingest/web/webhook-sender'

// Issue 22, point 10: a crawler or webhook URL whose host resolves to a private address is refused as "not allowed",
// without the address DNS gave: the error a datasource or a webhook delivery shows must not map the internal network.

afterEach(() => trustHostsForTests(['localhost']))

const INTERNAL_ANSWERS = /127\.0\.0\.1|::1\b|\b10\.\d|192\.168\./

describe('refused hosts are not resolved for the caller', () => {
  test('the crawler says "not allowed" and not the address a host name resolves to', async () => {
    trustHostsForTests([])
    const error = await safeFetch('http://localhost:9/page', { accept: ['text/html'] }).then(() => null, e => e as Error)
    expect(error?.message).toMatch(/^Not allowed: localhost resolves to a private, loopback or link-local address/)
    expect(error?.message).not.toMatch(INTERNAL_ANSWERS)
  })

  test('a webhook delivery to a host resolving to a private address fails for good, saying "not allowed" only', async () => {
    trustHostsForTests([])
    const outcome = await sendWebhook('http://localhost:9/hook', { body: '{}', headers: {} })
    expect(outcome).toMatchObject({ ok: false, permanent: true })
    expect(outcome.ok ? '' : outcome.error).toMatch(/^Not allowed: localhost resolves to/)
    expect(outcome.ok ? '' : outcome.error).not.toMatch(INTERNAL_ANSWERS)
  })
})
