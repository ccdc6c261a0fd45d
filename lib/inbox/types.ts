import type { ConversationSummary } from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'

// What the conversation inbox answers (GET /api/conversations, GET /api/conversations/{id}/messages); type-only
// imports of the dashboard read them.

export interface Votes {
  good: number
  bad: number
}

/** A conversation in the inbox: the summary of GET /api/conversations, with what a support team triages by. */
export interface InboxConversation extends ConversationSummary {
  agentName: string
  votes: Votes
  /** An answer found no source. */
  noSources: boolean
  /** An answer found no source or only weak matches (lib/gaps/weak.ts). */
  weakSources: boolean
}

export interface InboxPage {
  items: InboxConversation[]
  nextCursor: string | null
}

/** A message as the inbox shows it: with its retrieval record and the votes it received. */
export interface ReviewedMessage {
  id: string
  role: 'user' | 'assistant'
  text: string
  sources: AnswerSource[]
  error: string | null
  promptTokens: number | null
  completionTokens: number | null
  searchQuery: string | null
  topScore: number | null
  noSources: boolean
  votes: Votes & { comments: string[] }
  createdAt: string
}

export interface ReviewedConversation extends Omit<InboxConversation, 'lastMessage'> {
  messages: ReviewedMessage[]
}
