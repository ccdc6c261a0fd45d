import { beforeEach, describe, expect, test } from 'vitest'
import * as visitorSecret from '@/app/api/agents/[id]/visitor-secret/route'
import { signVisitor, verifyVisitorSignature } from '@/lib/agents/visitor-signature'
import { getPrisma } from '@/lib/db/client'
import { resetPublicQueryLimits } from '@/lib/rate-limit/public-queries'
import { createAgentVia, getAgentVia, queryAgentVia, useFakeModel } from './helpers/agents'
import { call, expectErrorBody } from './helpers/http'
import { createTenant, type TestTenant } from './helpers/tenants'

// Verified visitors (issue 14): the site's server signs its visitor's id and an expiry with the agent's secret
// (HMAC-SHA256 of "<visitorId>.<expires>"); the service trusts that id and records it on the conversation. A forged,
// expired or altered signature is refused, and so is an unsigned visitor when the agent requires signatures.

const model = useFakeModel()
beforeEach(() => {
  resetPublicQueryLimits()
  model.fake.setBehaviour({ reply: 'Hello.' })
})

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

async function rotate(tenant: TestTenant, agentId: string) {
  return call(visitorSecret.POST, `/api/agents/${agentId}/visitor-secret`, { method: 'POST', headers: tenant.headers, body: {}, params: { id: agentId } })
}

async function signedAgent(body: Record<string, unknown> = {}) {
  const tenant = await createTenant()
  const agent = await createAgentVia(tenant, { visibility: 'public', ...body })
  const res = await rotate(tenant, agent.id)
  expect(res.status).toBe(201)
  return { tenant, agent, secret: res.json.secret as string }
}

function signed(secret: string, visitorId: string, expires = inAnHour()) {
  return { visitorId, visitorExpires: expires, visitorSignature: signVisitor(secret, visitorId, expires) }
}

describe('verified visitors', () => {
  test('the secret is shown once: the agent resource shows only its prefix, and the database only ciphertext', async () => {
    const { tenant, agent, secret } = await signedAgent()
    expect(secret).toMatch(/^vsec_[A-Za-z0-9_-]{40,}$/)
    const read = await getAgentVia(agent.id, tenant.headers)
    expect(read.json.visitorSecretPrefix).toBe(secret.slice(0, 9))
    expect(read.text).not.toContain(secret)
    const prisma = await getPrisma()
    const row = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })
    expect(row.visitorSecretCiphertext).not.toContain(secret.slice(5))
  })

  test('a valid signature is trusted: the conversation records the verified visitor id', async () => {
    const { agent, secret } = await signedAgent()
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })
    expect(res.status).toBe(200)
    const prisma = await getPrisma()
    const conversation = await prisma.conversation.findUniqueOrThrow({ where: { id: res.json.conversationId } })
    expect(conversation.verifiedVisitorId).toBe('customer-42')
    // and the same visitor continues it
    const next = await queryAgentVia(agent.id, { query: 'Again', conversationId: res.json.conversationId, ...signed(secret, 'customer-42') })
    expect(next.status).toBe(200)
  })

  test('a forged signature (another secret) is refused', async () => {
    const { agent } = await signedAgent()
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed('vsec_not-the-secret', 'customer-42') })
    expect(res.status).toBe(403)
    expectErrorBody(res.json, 'visitor_not_verified')
    expect(model.fake.chatRequests()).toHaveLength(0)
  })

  test('an expired signature is refused, even though it was valid', async () => {
    const { agent, secret } = await signedAgent()
    const past = Math.floor(Date.now() / 1000) - 5
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42', past) })
    expect(res.status).toBe(403)
    expectErrorBody(res.json, 'visitor_not_verified')
    expect(res.json.error.message).toContain('expired')
  })

  test('an altered id, expiry or signature is refused', async () => {
    const { agent, secret } = await signedAgent()
    const good = signed(secret, 'customer-42')
    const flip = (hex: string) => (hex[0] === 'a' ? 'b' : 'a') + hex.slice(1)
    for (const altered of [
      { ...good, visitorId: 'customer-43' },
      { ...good, visitorExpires: good.visitorExpires + 86_400 },
      { ...good, visitorSignature: flip(good.visitorSignature) },
      { ...good, visitorSignature: good.visitorSignature.slice(0, 32) },
      { ...good, visitorSignature: undefined },
    ]) {
      const res = await queryAgentVia(agent.id, { query: 'Hi', ...altered })
      expect(res.status, JSON.stringify(altered)).toBe(403)
      expectErrorBody(res.json, 'visitor_not_verified')
    }
  })

  test('a rotated secret stops the old signatures at once', async () => {
    const { tenant, agent, secret } = await signedAgent()
    await rotate(tenant, agent.id)
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })
    expect(res.status).toBe(403)
  })

  test('unsigned visitors are refused when the agent requires signatures, and welcome otherwise', async () => {
    const { tenant, agent, secret } = await signedAgent({ requireSignedVisitors: true })
    const unsigned = await queryAgentVia(agent.id, { query: 'Hi', visitorId: 'customer-42' })
    expect(unsigned.status).toBe(403)
    expectErrorBody(unsigned.json, 'visitor_not_verified')
    expect((await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })).status).toBe(200)
    // the organization's own key is trusted as it is
    expect((await queryAgentVia(agent.id, { query: 'Hi' }, tenant.headers)).status).toBe(200)
    const open = await signedAgent()
    expect((await queryAgentVia(open.agent.id, { query: 'Hi' })).status).toBe(200)
  })

  test("a verified visitor's conversation is not continued by an unsigned caller who knows its id", async () => {
    const { agent, secret } = await signedAgent()
    const res = await queryAgentVia(agent.id, { query: 'Hi', ...signed(secret, 'customer-42') })
    const hijack = await queryAgentVia(agent.id, { query: 'Mine now', conversationId: res.json.conversationId, visitorId: 'customer-42' })
    expect(hijack.status).toBe(404)
  })

  test('the comparison is over the whole HMAC: verify agrees with sign and refuses anything else', () => {
    const secret = 'vsec_test'
    const expires = 2_000_000_000
    const signature = signVisitor(secret, 'v1', expires)
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    expect(verifyVisitorSignature(secret, { visitorId: 'v1', signature, expires }, expires - 1)).toBe('valid')
    expect(verifyVisitorSignature(secret, { visitorId: 'v1', signature, expires }, expires)).toBe('expired')
    expect(verifyVisitorSignature(secret, { visitorId: 'v1', signature: signature.toUpperCase(), expires }, expires - 60)).toBe('valid')
    expect(verifyVisitorSignature(secret, { visitorId: 'v1', signature: 'zz', expires }, 0)).toBe('invalid')
  })

  test('only the organization may rotate the secret', async () => {
    const { agent } = await signedAgent()
    const stranger = await createTenant()
    expect((await rotate(stranger, agent.id)).status).toBe(404)
  })
})
