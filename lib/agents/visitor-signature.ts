import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { config } from '@/lib/config'
import { getPrisma } from '@/lib/db/client'
import type { TenantContext } from '@/lib/domain/tenant'
import { Forbidden, NotFound } from '@/lib/http/errors'
import { decryptSecret, encryptSecret } from '@/lib/crypto/secrets'
import type { AgentAccess } from './agent-access'
import type { AgentQuery } from './agent-schemas'
import type { NamedConversation } from './conversations'
import { findAgent } from './agents'

// Verified visitors (issue 14): the agent holds a signing secret (stored encrypted as webhook secrets are, shown
// once, rotatable). The site's server signs its user's id: signature = hex HMAC-SHA256(secret, "<visitorId>.<expires>"),
// expires in Unix seconds. The page hands id, expiry and signature to the bubble; the service then trusts that
// visitorId, records it on the conversation (verifiedVisitorId), and, when the agent requires it, refuses visitors
// without a valid signature. Members of the agent's organization (API keys, the dashboard) are trusted as they are.

/** A new visitor signing secret: "vsec_" and 32 random bytes. */
export function newVisitorSecret(): string {
  return `vsec_${randomBytes(32).toString('base64url')}`
}

/** What the site's server computes (README's recipe). */
export function signVisitor(secret: string, visitorId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${visitorId}.${expires}`).digest('hex')
}

export type SignatureVerdict = 'valid' | 'expired' | 'too_long' | 'invalid'

/**
 * Recomputes the HMAC and compares in constant time; an expiry in the past is refused whatever the signature, and so
 * is one further ahead than VISITOR_TOKEN_MAX_DAYS (issue 22: a leaked signature must not serve for years).
 */
export function verifyVisitorSignature(
  secret: string,
  identity: { visitorId: string; signature: string; expires: number },
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureVerdict {
  const expected = Buffer.from(signVisitor(secret, identity.visitorId, identity.expires), 'hex')
  const given = /^[0-9a-f]{64}$/i.test(identity.signature) ? Buffer.from(identity.signature, 'hex') : Buffer.alloc(0)
  const matches = given.length === expected.length && timingSafeEqual(given, expected)
  if (!matches) return 'invalid'
  if (identity.expires <= nowSeconds) return 'expired'
  return identity.expires - nowSeconds > config().VISITOR_TOKEN_MAX_DAYS * 86_400 ? 'too_long' : 'valid'
}

/** A signed identity, as a query or a vote carries it. */
export interface SignedVisitor {
  visitorId?: string
  visitorSignature?: string
  visitorExpires?: number
}

/**
 * The verified visitor id of a signed identity, checked against the agent's secret: 403 visitor_not_verified when
 * it is incomplete, forged, expired or valid for too long (the reason in details).
 */
export function verifiedVisitorOf(agent: { visitorSecretCiphertext: string | null }, signed: SignedVisitor, nowSeconds?: number): string {
  if (!signed.visitorId || !signed.visitorSignature || signed.visitorExpires === undefined || !agent.visitorSecretCiphertext) {
    throw new Forbidden('visitor_not_verified', NOT_VERIFIED, { reason: 'unsigned' })
  }
  const identity = { visitorId: signed.visitorId, signature: signed.visitorSignature, expires: signed.visitorExpires }
  const verdict = verifyVisitorSignature(decryptSecret(agent.visitorSecretCiphertext), identity, nowSeconds)
  if (verdict === 'expired') throw new Forbidden('visitor_not_verified', 'The visitor signature has expired: sign the visitor again', { reason: 'expired' })
  if (verdict === 'too_long') {
    const days = config().VISITOR_TOKEN_MAX_DAYS
    throw new Forbidden('visitor_not_verified', `The visitor signature expires more than ${days} days ahead (VISITOR_TOKEN_MAX_DAYS): sign with a nearer expiry`, { reason: 'too_long' })
  }
  if (verdict !== 'valid') throw new Forbidden('visitor_not_verified', NOT_VERIFIED, { reason: 'invalid' })
  return signed.visitorId
}

/** A new secret for the agent (the previous one stops verifying at once): returned once, stored encrypted. */
export async function rotateVisitorSecret(ctx: TenantContext, agentId: string): Promise<{ secret: string; prefix: string }> {
  await findAgent(ctx, agentId)
  const secret = newVisitorSecret()
  const prefix = secret.slice(0, 9)
  const prisma = await getPrisma()
  await prisma.agent.update({ where: { id: agentId }, data: { visitorSecretCiphertext: encryptSecret(secret), visitorSecretPrefix: prefix } })
  return { secret, prefix }
}

/** The visitor of a query: verified when signed, or as the caller says (members, or unsigned where allowed). */
export interface QueryVisitor {
  /** The id the query runs under: the caller's, or for a verified visitor one derived from the signed id. */
  visitorId?: string
  /** The id the site signed, when verified. */
  verifiedVisitorId?: string
  verified: boolean
}

/**
 * The visitor record of a verified visitor: sites sign their own user ids ("42"), which collide between
 * organizations, so the record's id is derived from the organization and the signed id (the same each time).
 */
export function verifiedVisitorRecordId(organizationId: string, visitorId: string): string {
  return `vv_${createHash('sha256').update(`${organizationId}\0${visitorId}`).digest('base64url').slice(0, 32)}`
}

const NOT_VERIFIED = 'A valid visitor signature is required: sign the visitor id and expiry with the agent’s secret on your server'

/**
 * Checks the query's visitor identity: a signature given must be valid (else 403 visitor_not_verified, also when it
 * has expired); an agent that requires signed visitors refuses a public caller without one.
 */
export function checkQueryVisitor(access: AgentAccess, body: AgentQuery, nowSeconds?: number): QueryVisitor {
  const { agent } = access
  const signed = body.visitorSignature !== undefined || body.visitorExpires !== undefined
  if (signed) {
    const verifiedId = verifiedVisitorOf(agent, body, nowSeconds)
    return { visitorId: verifiedVisitorRecordId(access.organizationId, verifiedId), verifiedVisitorId: verifiedId, verified: true }
  }
  if (agent.requireSignedVisitors && !access.member) throw new Forbidden('visitor_not_verified', NOT_VERIFIED, { reason: 'unsigned' })
  return { visitorId: body.visitorId, verified: false }
}

/** A conversation started by a verified visitor is continued by that visitor only (else 404). */
export function checkVerifiedConversation(named: NamedConversation, visitor: QueryVisitor): void {
  const verifiedVisitorId = named.conversation?.verifiedVisitorId
  if (verifiedVisitorId && verifiedVisitorId !== visitor.verifiedVisitorId) throw new NotFound('Conversation')
}

/** Records the verified visitor on the conversation the query opened. */
export async function markVerifiedConversation(conversationId: string, visitor: QueryVisitor): Promise<void> {
  if (!visitor.verifiedVisitorId) return
  const prisma = await getPrisma()
  await prisma.conversation.updateMany({ where: { id: conversationId, verifiedVisitorId: null }, data: { verifiedVisitorId: visitor.verifiedVisitorId } })
}
