import { getPrisma } from '@/lib/db/client'
import type { TenantContext } from '@/lib/domain/tenant'
import type { DeliveryResource, WebhookEvent, WebhookResource } from '@/lib/domain/webhooks'

export type { DeliveryResource, WebhookResource } from '@/lib/domain/webhooks'
import type { WebhookDelivery, WebhookEndpoint } from '@/lib/generated/prisma/client'
import { NotFound } from '@/lib/http/errors'
import { requeueDelivery } from './queue'
import type { WebhookCreateBody, WebhookPatchBody } from './schemas'
import { encryptSecret } from '@/lib/crypto/secrets'
import { newSigningSecret } from './signature'

function toResource(e: WebhookEndpoint): WebhookResource {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events as WebhookEvent[],
    enabled: e.enabled,
    secretPrefix: e.secretPrefix,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  }
}

function toDelivery(d: WebhookDelivery): DeliveryResource {
  return {
    id: d.id,
    webhookId: d.endpointId,
    event: d.event,
    status: d.status as DeliveryResource['status'],
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    nextAttemptAt: d.status === 'pending' ? d.nextRunAt.toISOString() : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    body: JSON.parse(d.body),
  }
}

async function findEndpoint(ctx: TenantContext, id: string): Promise<WebhookEndpoint> {
  const prisma = await getPrisma()
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id, organizationId: ctx.organizationId } })
  if (!endpoint) throw new NotFound('Webhook')
  return endpoint
}

export async function listWebhooks(ctx: TenantContext): Promise<WebhookResource[]> {
  const prisma = await getPrisma()
  const rows = await prisma.webhookEndpoint.findMany({ where: { organizationId: ctx.organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })
  return rows.map(toResource)
}

/** A new endpoint with a new signing secret, answered once here (stored encrypted, never returned again). */
export async function createWebhook(ctx: TenantContext, body: WebhookCreateBody): Promise<WebhookResource & { secret: string }> {
  const prisma = await getPrisma()
  const secret = newSigningSecret()
  const endpoint = await prisma.webhookEndpoint.create({
    data: {
      organizationId: ctx.organizationId,
      url: body.url,
      events: [...new Set(body.events)],
      description: body.description ?? null,
      enabled: body.enabled ?? true,
      secretCiphertext: encryptSecret(secret),
      secretPrefix: secret.slice(0, 12),
    },
  })
  return { ...toResource(endpoint), secret }
}

export async function getWebhook(ctx: TenantContext, id: string): Promise<WebhookResource> {
  return toResource(await findEndpoint(ctx, id))
}

export async function updateWebhook(ctx: TenantContext, id: string, patch: WebhookPatchBody): Promise<WebhookResource> {
  const endpoint = await findEndpoint(ctx, id)
  const prisma = await getPrisma()
  const updated = await prisma.webhookEndpoint.update({
    where: { id: endpoint.id, organizationId: ctx.organizationId },
    data: { url: patch.url, events: patch.events ? [...new Set(patch.events)] : undefined, description: patch.description, enabled: patch.enabled },
  })
  return toResource(updated)
}

/** Removes the endpoint and its deliveries (pending ones are never sent). */
export async function deleteWebhook(ctx: TenantContext, id: string): Promise<WebhookResource> {
  const endpoint = await findEndpoint(ctx, id)
  const prisma = await getPrisma()
  await prisma.webhookEndpoint.delete({ where: { id: endpoint.id, organizationId: ctx.organizationId } })
  return toResource(endpoint)
}

/** The endpoint's latest deliveries, newest first. */
export async function listDeliveries(ctx: TenantContext, id: string, limit: number): Promise<DeliveryResource[]> {
  const endpoint = await findEndpoint(ctx, id)
  const prisma = await getPrisma()
  const rows = await prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit })
  return rows.map(toDelivery)
}

/** "Send again": queues the delivery anew (same body, a new signature when sent), due now. */
export async function resendDelivery(ctx: TenantContext, deliveryId: string): Promise<DeliveryResource> {
  const prisma = await getPrisma()
  const delivery = await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, organizationId: ctx.organizationId } })
  if (!delivery) throw new NotFound('Webhook delivery')
  await requeueDelivery(delivery.id)
  return toDelivery(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }))
}
