import { encode } from 'next-auth/jwt'
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys'
import { hashPassword } from '@/lib/auth/passwords'
import { createPasswordReset } from '@/lib/auth/password-reset'
import { getBlobStore, originalKey } from '@/lib/db/blob-store'
import { encryptSecret } from '@/lib/crypto/secrets'
import { getPrisma } from '@/lib/db/client'
import { trustHostsForTests } from '@/lib/ingest/web/address-policy'
import { startFakeNotion, type FakeNotion } from '../fake-notion'
import { createTenant, type TestTenant } from '../tenants'

// Two organizations with one of everything, built straight in the database: the targets of the bad-input and
// auth suites. Every text of A carries MARKER so that a response leaking A's data to B is easy to spot.

export const MARKER = 'TENANT-A-PRIVATE-7c1f'
/** The password of the world's owner (userId), for the endpoints of a signed-in user's own account. */
export const WORLD_PASSWORD = 'world password 123'

export interface TenantWorld extends TestTenant {
  datastoreId: string
  datasourceId: string
  agentId: string
  /** A public agent (answers any caller on /query; shows name and description on GET). */
  publicAgentId: string
  conversationId: string
  /** The assistant message (the answer) of that conversation. */
  answerId: string
  visitorId: string
  /** A second API key of the organization, not used to authenticate (revoking it leaves the tenant working). */
  spareKeyId: string
  /** A revoked key of the organization. */
  revokedKey: string
  userId: string
  /** An editor of the organization, and a reset link's token for their password (POST /api/password-resets/{token}). */
  memberId: string
  passwordResetToken: string
  /** A webhook endpoint of the organization, with one delivery. */
  webhookId: string
  webhookDeliveryId: string
  /** A Notion connection of the organization, and a token the world's fake Notion accepts. */
  connectionId: string
  notionToken: string
}

// One fake Notion per test file, at "localhost" (trusted as a private host for it only): connections are checked
// with it when saved
let notion: Promise<FakeNotion> | undefined
async function worldNotion(): Promise<FakeNotion> {
  notion ??= startFakeNotion().then(fake => {
    fake.unref()
    return fake
  })
  const fake = await notion
  process.env.NOTION_API_URL = fake.url.replace('127.0.0.1', 'localhost')
  // the suites send many valid connections: not spaced as Notion's rate asks
  process.env.NOTION_REQUESTS_PER_SECOND = '100'
  trustHostsForTests(['localhost'])
  return fake
}

let n = 0

export async function createTenantWorld(label: string, marker = `${label}-${++n}`): Promise<TenantWorld> {
  const tenant = await createTenant(`${marker} org`)
  const prisma = await getPrisma()
  const organizationId = tenant.ctx.organizationId
  const store = await prisma.datastore.create({ data: { organizationId, name: `${marker} store`, description: `${marker} description` } })
  const ds = await prisma.datasource.create({
    data: { organizationId, datastoreId: store.id, type: 'text', name: `${marker} doc`, status: 'synched', customId: `${marker}-cid`, metadata: { source: marker } },
  })
  // its original, as an upsert stores it (GET /api/datasources/{id}/original and /text read it)
  await (await getBlobStore()).put(originalKey(ds.id), new TextEncoder().encode(`${marker} text`), 'text/plain; charset=utf-8')
  const agentData = { organizationId, description: `${marker} agent`, systemPrompt: `${marker} system prompt`, datastores: { create: [{ datastoreId: store.id }] } }
  const agent = await prisma.agent.create({ data: { ...agentData, name: `${marker} agent` } })
  const publicAgent = await prisma.agent.create({ data: { ...agentData, name: `${marker} public agent`, visibility: 'public' } })
  const visitor = await prisma.visitor.create({ data: { organizationId } })
  const conversation = await prisma.conversation.create({
    data: { organizationId, agentId: agent.id, visitorId: visitor.id, channel: 'api', title: `${marker} question` },
  })
  await prisma.message.create({ data: { conversationId: conversation.id, role: 'user', text: `${marker} question` } })
  const answer = await prisma.message.create({ data: { conversationId: conversation.id, role: 'assistant', text: `${marker} answer`, sources: [] } })
  const spare = await createApiKey(tenant.ctx, `${marker} spare key`)
  const revoked = await createApiKey(tenant.ctx, `${marker} revoked key`)
  await revokeApiKey(tenant.ctx, revoked.apiKey.id)
  const user = await prisma.user.create({ data: { email: `${marker.toLowerCase()}-${Date.now()}@example.com`, passwordHash: await hashPassword(WORLD_PASSWORD) } })
  await prisma.membership.create({ data: { organizationId, userId: user.id, role: 'owner' } })
  const member = await prisma.user.create({ data: { email: `${marker.toLowerCase()}-editor-${Date.now()}@example.com`, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: member.id, role: 'editor' } })
  // a link of another member's: POST /api/members/{userId}/password-reset replaces the member's unused ones
  const resetting = await prisma.user.create({ data: { email: `${marker.toLowerCase()}-resetting-${Date.now()}@example.com`, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: resetting.id, role: 'viewer' } })
  const reset = await createPasswordReset(tenant.ctx, resetting.id, 'http://localhost')
  const webhook = await createWebhookRow(organizationId)
  const fake = await worldNotion()
  const connectionId = await createConnectionRow(organizationId, fake.token, `${marker} connection`)
  const delivery = await prisma.webhookDelivery.create({ data: { organizationId, endpointId: webhook, event: 'datasource.synched', body: '{}', status: 'failed' } })
  return {
    connectionId,
    notionToken: fake.token,
    webhookId: webhook,
    webhookDeliveryId: delivery.id,
    ...tenant,
    datastoreId: store.id,
    datasourceId: ds.id,
    agentId: agent.id,
    publicAgentId: publicAgent.id,
    conversationId: conversation.id,
    answerId: answer.id,
    visitorId: visitor.id,
    spareKeyId: spare.apiKey.id,
    revokedKey: revoked.secret,
    userId: user.id,
    memberId: member.id,
    passwordResetToken: reset.url.split('/').pop()!,
  }
}

/** Headers of a same-origin dashboard request signed in as the world's owner (a session of its current version). */
export async function sessionHeaders(world: TenantWorld): Promise<Record<string, string>> {
  const prisma = await getPrisma()
  const { sessionVersion } = await prisma.user.findUniqueOrThrow({ where: { id: world.userId }, select: { sessionVersion: true } })
  const token = await encode({ token: { sub: world.userId, sv: sessionVersion }, secret: process.env.NEXTAUTH_SECRET! })
  return { cookie: `next-auth.session-token=${token}`, 'sec-fetch-site': 'same-origin' }
}

async function createWebhookRow(organizationId: string): Promise<string> {
  const prisma = await getPrisma()
  const row = await prisma.webhookEndpoint.create({
    data: { organizationId, url: 'https://hooks.example.com/in', events: ['datasource.synched'], secretCiphertext: 'v1.x.y.z', secretPrefix: 'whsec_test' },
  })
  return row.id
}

async function createConnectionRow(organizationId: string, token: string, name = 'throwaway'): Promise<string> {
  const prisma = await getPrisma()
  const row = await prisma.connection.create({ data: { organizationId, provider: 'notion', name, secretCiphertext: encryptSecret(token), secretPrefix: 'ntn_' } })
  return row.id
}

/** Fresh resources of a tenant, for requests that destroy what they name. */
export async function freshResource(w: TenantWorld, kind: 'datastore' | 'datasource' | 'agent' | 'apiKey' | 'webhook' | 'connection'): Promise<string> {
  const prisma = await getPrisma()
  const organizationId = w.ctx.organizationId
  switch (kind) {
    case 'datastore':
      return (await prisma.datastore.create({ data: { organizationId, name: 'throwaway' } })).id
    case 'datasource':
      return (await prisma.datasource.create({ data: { organizationId, datastoreId: w.datastoreId, type: 'text', name: 'throwaway', status: 'synched' } })).id
    case 'agent':
      return (await prisma.agent.create({ data: { organizationId, name: 'throwaway' } })).id
    case 'apiKey':
      return (await createApiKey(w.ctx, 'throwaway')).apiKey.id
    case 'webhook':
      return createWebhookRow(organizationId)
    case 'connection':
      return createConnectionRow(organizationId, w.notionToken)
  }
}
