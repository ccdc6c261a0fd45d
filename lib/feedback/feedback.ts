import { getPrisma } from '@/lib/db/client'
import { seesAgent, type TenantContext } from '@/lib/domain/tenant'
import { InvalidRequest, NotFound, Unauthorized } from '@/lib/http/errors'
import { emitEvent } from '@/lib/webhooks/emit'
import { verifiedVisitorOf, type SignedVisitor } from '@/lib/agents/visitor-signature'
import type { FeedbackResource, Vote } from './schemas'

/** Who votes, and how often: said in the API document of both vote endpoints. */
export const VOTER_RULES =
  "One vote per voter per answer; voting again changes it (201 for a first vote, 200 for a change). The voter is the dashboard user, the API key, or — with `visitorId`, which must be the conversation's visitor — that visitor (a public agent's visitor needs no key). A message the caller may not see is a 404. Emits the webhook event `feedback.created`."

// One vote per voter per answer, changeable (a second vote replaces the first). Who votes, the voterKey:
//   user:<id>      a dashboard user (the playground, the inbox)
//   api_key:<id>   an API caller voting for itself
//   visitor:<id>   a visitor of the conversation: the public chat or bubble, or an API caller relaying its visitor's
//                  vote (visitorId in the body, which must be the conversation's visitor)
//   verified:<id>  a visitor whose identity the host site signed (Conversation.verifiedVisitorId)
// A message the caller may not see (another organization's, a private agent's, another visitor's conversation) is a
// 404 to a caller with credentials and a 401 to one without, whether it exists or not.

interface Target {
  messageId: string
  /** The conversation the path names; the message must be one of its own. Absent for Chaindesk's eval-answer. */
  conversationId?: string
}

type MessageRow = NonNullable<Awaited<ReturnType<typeof loadMessage>>>

async function loadMessage(messageId: string) {
  const prisma = await getPrisma()
  return prisma.message.findUnique({
    where: { id: messageId },
    select: {
      id: true,
      role: true,
      conversationId: true,
      conversation: {
        select: {
          organizationId: true,
          agentId: true,
          visitorId: true,
          verifiedVisitorId: true,
          agent: { select: { visibility: true, requireSignedVisitors: true, visitorSecretCiphertext: true } },
        },
      },
    },
  })
}

/**
 * The caller's voterKey for this message, or null when the caller may not see it. A public caller voting on an agent
 * that requires signed visitors, or on a verified visitor's conversation, must sign as that visitor (issue 22: the
 * verified id alone, which a conversation read used to show, is no credential); 403 when the signature fails.
 */
export function voterKeyOf(ctx: TenantContext | null, message: MessageRow, signed: SignedVisitor = {}): string | null {
  const c = message.conversation
  // a key limited to other agents sees this conversation as another organization's
  const member = ctx !== null && ctx.organizationId === c.organizationId && seesAgent(ctx, c.agentId)
  let visitorId = signed.visitorId
  if (!member && c.agent.visibility === 'public' && (c.verifiedVisitorId || c.agent.requireSignedVisitors)) {
    if (!c.verifiedVisitorId) return null
    visitorId = verifiedVisitorOf(c.agent, signed)
    return visitorId === c.verifiedVisitorId ? `verified:${visitorId}` : null
  }
  const ownVisitor = visitorId !== undefined && (visitorId === c.visitorId || visitorId === c.verifiedVisitorId)
  const visitorKey = c.verifiedVisitorId && visitorId === c.verifiedVisitorId ? `verified:${visitorId}` : `visitor:${visitorId}`
  if (member) {
    if (ownVisitor) return visitorKey
    return ctx.actor.type === 'user' ? `user:${ctx.actor.userId}` : `api_key:${ctx.actor.apiKeyId}`
  }
  if (c.agent.visibility === 'public' && ownVisitor) return visitorKey
  return null
}

const toResource = (f: { id: string; messageId: string; vote: string; comment: string | null; createdAt: Date; updatedAt: Date }, conversationId: string): FeedbackResource => ({
  id: f.id,
  messageId: f.messageId,
  conversationId,
  vote: f.vote as Vote,
  comment: f.comment,
  createdAt: f.createdAt.toISOString(),
  updatedAt: f.updatedAt.toISOString(),
})

/**
 * Records the caller's vote on an answer (creating it, or changing the one the caller gave before) and emits the
 * webhook event `feedback.created` with the vote. `created` tells a first vote from a change.
 */
export async function recordFeedback(
  ctx: TenantContext | null,
  target: Target,
  input: { vote: Vote; comment: string | null } & SignedVisitor,
): Promise<{ feedback: FeedbackResource; created: boolean }> {
  const message = await loadMessage(target.messageId)
  if (!message || (target.conversationId !== undefined && message.conversationId !== target.conversationId)) throw ctx ? new NotFound('Message') : new Unauthorized()
  const voterKey = voterKeyOf(ctx, message, input)
  // as for a conversation's read: 404 to a caller with credentials, 401 to one without (nothing revealed either way)
  if (!voterKey) throw ctx ? new NotFound('Message') : new Unauthorized()
  if (message.role !== 'assistant') throw new InvalidRequest('Only an answer of the agent can be rated', [{ path: 'messageId', message: 'not an answer', code: 'custom' }])
  const prisma = await getPrisma()
  const organizationId = message.conversation.organizationId
  const key = { messageId_voterKey: { messageId: message.id, voterKey } }
  const before = await prisma.messageFeedback.findUnique({ where: key, select: { id: true } })
  const row = await prisma.messageFeedback.upsert({
    where: key,
    create: { organizationId, messageId: message.id, voterKey, vote: input.vote, comment: input.comment },
    update: { vote: input.vote, comment: input.comment },
  })
  await emitEvent(organizationId, 'feedback.created', { feedbackId: row.id, messageId: message.id, conversationId: message.conversationId, value: input.vote })
  return { feedback: toResource(row, message.conversationId), created: before === null }
}

/** The votes given on these messages, by message: counts and comments (for the dashboard's conversation view). */
export async function votesOf(messageIds: string[]) {
  if (messageIds.length === 0) return new Map<string, { good: number; bad: number; comments: string[] }>()
  const prisma = await getPrisma()
  const rows = await prisma.messageFeedback.findMany({ where: { messageId: { in: messageIds } }, orderBy: { createdAt: 'asc' }, select: { messageId: true, vote: true, comment: true } })
  const votes = new Map<string, { good: number; bad: number; comments: string[] }>()
  for (const r of rows) {
    const v = votes.get(r.messageId) ?? { good: 0, bad: 0, comments: [] }
    if (r.vote === 'good') v.good++
    else v.bad++
    if (r.comment) v.comments.push(r.comment)
    votes.set(r.messageId, v)
  }
  return votes
}
