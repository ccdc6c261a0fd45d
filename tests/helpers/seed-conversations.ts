import { randomUUID } from 'node:crypto'
import { getPrisma } from '@/lib/db/client'

// Conversations written straight into the database (fast), as the query pipeline would leave them.

export interface SeedMessage {
  role: 'user' | 'assistant'
  text: string
  searchQuery?: string
  topScore?: number | null
  noSources?: boolean
  promptTokens?: number
  completionTokens?: number
  votes?: ('good' | 'bad')[]
  comment?: string
}

export async function seedConversation(
  organizationId: string,
  agentId: string,
  c: { channel?: 'api' | 'dashboard' | 'website'; at?: Date; title?: string; messages: SeedMessage[] },
) {
  const prisma = await getPrisma()
  const at = c.at ?? new Date()
  const conversation = await prisma.conversation.create({
    data: { id: randomUUID(), organizationId, agentId, channel: c.channel ?? 'api', title: c.title ?? c.messages[0]?.text.slice(0, 120), createdAt: at, updatedAt: at },
  })
  const messageIds: string[] = []
  for (const [i, m] of c.messages.entries()) {
    const message = await prisma.message.create({
      data: {
        conversationId: conversation.id,
        role: m.role,
        text: m.text,
        searchQuery: m.searchQuery ?? null,
        topScore: m.topScore ?? null,
        noSources: m.noSources ?? false,
        promptTokens: m.promptTokens ?? null,
        completionTokens: m.completionTokens ?? null,
        createdAt: new Date(at.getTime() + i),
      },
    })
    messageIds.push(message.id)
    for (const [j, vote] of (m.votes ?? []).entries()) {
      await prisma.messageFeedback.create({ data: { organizationId, messageId: message.id, voterKey: `visitor:seed-${j}`, vote, comment: m.comment ?? null, createdAt: at } })
    }
  }
  return { conversationId: conversation.id, messageIds }
}

export async function seedAgent(organizationId: string, name = 'Support') {
  const prisma = await getPrisma()
  return prisma.agent.create({ data: { organizationId, name } })
}
