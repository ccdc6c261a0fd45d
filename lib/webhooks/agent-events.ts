import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'
import { emitEvent } from './emit'

// `message.created` for a message stored outside the question's path (an operator's reply, lib/support): one query
// when no endpoint of the organization listens (the usual case), two when one does. Never throws. The question's own
// rows queue their events in the statement that stores them (lib/agents/conversation-writes.ts).

const LISTENS = (event: string) =>
  `EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."organizationId" = c."organizationId" AND e.enabled AND '${event}' = ANY(e.events))`

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
