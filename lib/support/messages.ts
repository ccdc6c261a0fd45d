import { getPrisma } from '@/lib/db/client'
import type { AppendedMessage } from '@/lib/domain/support'
import type { TenantContext } from '@/lib/domain/tenant'
import { NotFound, Unauthorized } from '@/lib/http/errors'
import { limitPublicQuery } from '@/lib/rate-limit/public-queries'
import { emitMessageCreated } from '@/lib/webhooks'
import { operatorOf, visitorActor, type SupportActor } from './actor'
import { findSupportConversation, type SupportConversation } from './conversation'
import type { ConversationMessageInput } from './schemas'
import { reopenConversation, takeOver } from './transitions'

// Messages written by people, not by the model (POST /api/conversations/{id}/message): the visitor's while a person
// has the conversation (Chaindesk's widget sends them here instead of querying the agent), and an operator's replies,
// which the visitor sees as the agent's, named. Neither calls the model.

/** Appends the visitor's message; a resolved conversation the visitor writes in again is open again. */
export async function appendVisitorMessage(c: SupportConversation, text: string): Promise<AppendedMessage> {
  if (c.status === 'RESOLVED') await reopenConversation(c, visitorActor(c.visitorId))
  return storeMessage(c.id, { role: 'user', text })
}

/** Appends an operator's reply; replying takes the conversation over (the model stops answering), as in Chaindesk. */
export async function appendOperatorReply(c: SupportConversation, text: string, operator: SupportActor): Promise<AppendedMessage> {
  if (c.isAiEnabled) await takeOver(c, operator)
  return storeMessage(c.id, { role: 'assistant', text, operatorName: operator.name ?? 'Operator', operatorUserId: operator.type === 'user' ? operator.id : null })
}

async function storeMessage(
  conversationId: string,
  data: { role: 'user' | 'assistant'; text: string; operatorName?: string; operatorUserId?: string | null },
): Promise<AppendedMessage> {
  const prisma = await getPrisma()
  const [m] = await prisma.$transaction([
    prisma.message.create({ data: { conversationId, ...data } }),
    prisma.conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() }, select: { id: true } }),
  ])
  await emitMessageCreated(m.id)
  return { id: m.id, conversationId, from: m.role === 'user' ? 'human' : 'agent', text: m.text, operatorName: m.operatorName, createdAt: m.createdAt.toISOString() }
}

/**
 * The endpoint's rules: without credentials, only the conversation's own visitor writes (a public agent's
 * conversation, rate-limited like public queries), as the visitor; with a key or session, a reply (or, with
 * `from: "human"`, a message on the visitor's behalf, which an integration relays).
 */
export async function postConversationMessage(ctx: TenantContext | null, id: string, body: ConversationMessageInput, clientAddress: string): Promise<AppendedMessage> {
  const c = await findSupportConversation(ctx, id)
  if (!c.member) {
    if (body.from === 'agent') throw new Unauthorized("An operator's reply needs an API key or a session")
    if (c.visitorId && body.visitorId !== c.visitorId) throw new NotFound('Conversation')
    limitPublicQuery(clientAddress, c.visitorId ?? undefined)
    return appendVisitorMessage(c, body.message)
  }
  if (body.from === 'human') return appendVisitorMessage(c, body.message)
  return appendOperatorReply(c, body.message, await operatorOf(ctx!))
}
