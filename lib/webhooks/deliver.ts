import { metrics } from '@/lib/metrics/registry'
import { config } from '@/lib/config'
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER } from '@/lib/domain/webhooks'
import { logger } from '@/lib/logger'
import { claimDeliveries, releaseDeliveries, settleDelivery, type ClaimedDelivery, type DeliveryResult } from './queue'
import { decryptSecret } from '@/lib/crypto/secrets'
import { signatureHeader } from './signature'

/**
 * Sends one POST to a receiver through the SSRF-guarded fetcher (lib/ingest/web), answering its status or why it
 * could not be sent. Given by the worker: lib/webhooks does not depend on lib/ingest.
 */
export type WebhookSender = (url: string, request: { body: string; headers: Record<string, string>; signal?: AbortSignal }) => Promise<DeliveryResult>

/**
 * Claims the due deliveries and sends them, signed; returns how many were attempted. A 2xx answer is delivered;
 * anything else is retried with backoff (lib/webhooks/queue.ts) up to WEBHOOK_MAX_ATTEMPTS.
 */
export async function deliverDueWebhooks(send: WebhookSender, workerId: string, options: { signal?: AbortSignal; limit?: number } = {}): Promise<number> {
  const leaseMs = (config().WEBHOOK_TIMEOUT_SECONDS + 30) * 1000
  const claimed = await claimDeliveries(workerId, leaseMs, options.limit)
  const open = new Set(claimed.map(d => d.id))
  try {
    await Promise.all(
      claimed.map(async delivery => {
        const result = await attempt(send, delivery, options.signal)
        if (options.signal?.aborted) return
        open.delete(delivery.id)
        const ending = await settleDelivery(delivery, workerId, result)
        metrics().webhookDeliveries.inc({ outcome: result.ok ? 'delivered' : 'failed_attempt' })
        logger.info('webhook delivery attempted', { deliveryId: delivery.id, event: delivery.event, attempt: delivery.attempts, status: result.status, ending })
      }),
    )
  } finally {
    await releaseDeliveries([...open], workerId)
  }
  return claimed.length
}

async function attempt(send: WebhookSender, delivery: ClaimedDelivery, signal?: AbortSignal): Promise<DeliveryResult> {
  try {
    const secret = decryptSecret(delivery.secretCiphertext)
    const headers = {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signatureHeader(secret, delivery.body, Math.floor(Date.now() / 1000)),
      [EVENT_HEADER]: delivery.event,
      [DELIVERY_HEADER]: delivery.id,
    }
    return await send(delivery.url, { body: delivery.body, headers, signal })
  } catch (error) {
    return { ok: false, status: null, error: error instanceof Error ? error.message : String(error), permanent: false }
  }
}
