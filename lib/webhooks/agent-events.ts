import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { emitEvent } from './emit'

// The conversation and message events, emitted by lib/agents with one line each: one query when no endpoint of the
// organization listens (the usual case), two when one does. Never throw.

const LISTENS = (event: string) =>
  `EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."organizationId" = c."organizationId" AND e.enabled AND '${event}' = ANY(e.events))`

/** `conversation.created` for a conversation just started. */
export async function emitConversationCreated(conversationId: string): Promise<void> {
  try {
    const { sql } = await getDatabase()
    const [c] = await sql.query<{ organizationId: string; agentId: string; visitorId: string | null; channel: string }>(
      `SELECT c."organizationId", c."agentId", c."visitorId", c.channel::text AS channel FROM "Conversation" c
        WHERE c.id = $1 AND ${LISTENS('conversation.created')}`,
      [conversationId],
    )
    if (c) await emitEvent(c.organizationId, 'conversation.created', { conversationId, agentId: c.agentId, visitorId: c.visitorId, channel: c.channel })
  } catch (error) {
    logger.error('conversation.created not queued', { conversationId, error })
  }
}

/** `message.created` for a message just stored (a question or an answer). */
export async function emitMessageCreated(messageId: string): Promise<void> {
  try {
    const { sql } = await getDatabase()
    const [m] = await sql.query<{ organizationId: string; agentId: string; conversationId: string; role: 'user' | 'assistant'; text: string }>(
      `SELECT c."organizationId", c."agentId", m."conversationId", m.role::text AS role, m.text
         FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
        WHERE m.id = $1 AND ${LISTENS('message.created')}`,
      [messageId],
    )
    if (m) await emitEvent(m.organizationId, 'message.created', { messageId, conversationId: m.conversationId, agentId: m.agentId, role: m.role, text: m.text })
  } catch (error) {
    logger.error('message.created not queued', { messageId, error })
  }
}
