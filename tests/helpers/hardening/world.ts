import { encode } from 'next-auth/jwt'
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys'
import { hashPassword } from '@/lib/auth/passwords'
import { createPasswordReset } from '@/lib/auth/password-reset'
import { hashInvitationToken } from '@/lib/members/invitations'
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
  /** A reset link's token for a viewer's password (POST /api/password-resets/{token}). */
  passwordResetToken: string
  /** A webhook endpoint of the organization, with one delivery. */
  webhookId: string
  webhookDeliveryId: string
  /** A Notion connection of the organization, and a token the world's fake Notion accepts. */
  connectionId: string
  notionToken: string
  /** Issue 24: a pending invitation, a member other than the owner (an editor), and the owner's dashboard session as made (after a password change, sessionHeaders). */
  invitationId: string
  invitationToken: string
  memberUserId: string
  session: Record<string, string>
  /** A tool call of the conversation waiting for an operator (issue 25). */
  approvalId: string
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
  // a link of another member's: POST /api/members/{userId}/password-reset replaces the member's unused ones
  const resetting = await prisma.user.create({ data: { email: `${marker.toLowerCase()}-resetting-${Date.now()}@example.com`, passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: resetting.id, role: 'viewer' } })
  const reset = await createPasswordReset(tenant.ctx, resetting.id, 'http://localhost')
  const webhook = await createWebhookRow(organizationId)
  const fake = await worldNotion()
  const connectionId = await createConnectionRow(organizationId, fake.token, `${marker} connection`)
  const invitation = await createInvitationRow(organizationId)
  const member = await createMemberRow(organizationId)
  const delivery = await prisma.webhookDelivery.create({ data: { organizationId, endpointId: webhook, event: 'datasource.synched', body: '{}', status: 'failed' } })
  const approvalId = await createApprovalRow(w0(organizationId, agent.id, conversation.id))
  return {
    approvalId,
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
    invitationId: invitation.id,
    invitationToken: invitation.token,
    memberUserId: member,
    passwordResetToken: reset.url.split('/').pop()!,
    session: await sessionOf(user.id),
  }
}

/** The headers of a same-origin dashboard request signed in as the user, with their current session version. */
export async function sessionOf(userId: string): Promise<Record<string, string>> {
  const prisma = await getPrisma()
  const { sessionVersion } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { sessionVersion: true } })
  const token = await encode({ token: { sub: userId, sv: sessionVersion }, secret: process.env.NEXTAUTH_SECRET! })
  return { cookie: `next-auth.session-token=${token}`, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }
}

/** Headers of a same-origin dashboard request signed in as the world's owner (a session of its current version). */
export function sessionHeaders(world: TenantWorld): Promise<Record<string, string>> {
  return sessionOf(world.userId)
}

async function createInvitationRow(organizationId: string): Promise<{ id: string; token: string }> {
  const prisma = await getPrisma()
  const token = `inv_${Math.random().toString(36).slice(2)}${Date.now()}`
  const email = `invitee-${Math.random().toString(36).slice(2)}@example.com`
  const row = await prisma.invitation.create({ data: { organizationId, email, role: 'viewer', tokenHash: hashInvitationToken(token), expiresAt: new Date(Date.now() + 86_400_000) } })
  return { id: row.id, token }
}

async function createMemberRow(organizationId: string): Promise<string> {
  const prisma = await getPrisma()
  const user = await prisma.user.create({ data: { email: `member-${Math.random().toString(36).slice(2)}@example.com`, name: 'A member', passwordHash: 'x' } })
  await prisma.membership.create({ data: { organizationId, userId: user.id, role: 'editor' } })
  return user.id
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

const w0 = (organizationId: string, agentId: string, conversationId: string) => ({ organizationId, agentId, conversationId })

async function createApprovalRow(at: { organizationId: string; agentId: string; conversationId: string }): Promise<string> {
  const prisma = await getPrisma()
  const continuation = { system: 'You help.', messages: [{ role: 'user', content: 'Refund R-1' }], settings: { temperature: 0 } }
  const row = await prisma.toolApproval.create({ data: { ...at, toolCallId: 'call_1', toolName: 'refund_order', arguments: { orderId: 'R-1' }, continuation } })
  return row.id
}

/** Fresh resources of a tenant, for requests that destroy what they name. */
export async function freshResource(w: TenantWorld, kind: 'datastore' | 'datasource' | 'agent' | 'apiKey' | 'webhook' | 'connection' | 'invitation' | 'invitationToken' | 'member' | 'approval' | 'passwordReset'): Promise<string> {
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
    case 'invitation':
      return (await createInvitationRow(organizationId)).id
    case 'invitationToken':
      return (await createInvitationRow(organizationId)).token
    case 'member':
      return createMemberRow(organizationId)
    case 'approval':
      return createApprovalRow({ organizationId, agentId: w.agentId, conversationId: w.conversationId })
    case 'passwordReset': {
      const member = await createMemberRow(organizationId)
      return (await createPasswordReset(w.ctx, member, 'http://localhost')).url.split('/').pop()!
    }
  }
}
