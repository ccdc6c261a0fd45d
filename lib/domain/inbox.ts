// What the conversation inbox, the votes and the knowledge-gap queue answer (GET /api/conversations,
// GET /api/conversations/{id}/messages, POST …/feedback, GET /api/gaps): zod schemas, types inferred.
import { z } from 'zod'
import { ConversationMessage, ConversationSummary } from './agents'
import { ConversationEventResource } from './support'

const time = z.iso.datetime()

/** Stored as Chaindesk named them; 'up' and 'down' are accepted as the same votes (lib/feedback/schemas.ts). */
export const VOTES = ['good', 'bad'] as const
export type Vote = (typeof VOTES)[number]

export const Votes = z.strictObject({ good: z.number().int(), bad: z.number().int() })
export type Votes = z.infer<typeof Votes>

/** A conversation in the inbox: the summary of GET /api/conversations, with what a support team triages by. */
export const InboxConversation = ConversationSummary.extend({
  agentName: z.string(),
  votes: Votes,
  noSources: z.boolean().describe('An answer found no source'),
  weakSources: z.boolean().describe('An answer found no source or only weak matches'),
}).meta({ id: 'InboxConversation' })
export type InboxConversation = z.infer<typeof InboxConversation>

/** Conversations by status under the page's other filters: the inbox's tabs (issue 23). */
export const InboxCounts = z.strictObject({ all: z.number().int(), UNRESOLVED: z.number().int(), HUMAN_REQUESTED: z.number().int(), RESOLVED: z.number().int() })
export type InboxCounts = z.infer<typeof InboxCounts>

export const InboxPage = z.strictObject({ items: z.array(InboxConversation), counts: InboxCounts, nextCursor: z.string().nullable() })
export type InboxPage = z.infer<typeof InboxPage>

/** A message as the inbox shows it: with its retrieval record and the votes it received. */
export const ReviewedMessage = ConversationMessage.extend({ votes: Votes.extend({ comments: z.array(z.string()) }) })
export type ReviewedMessage = z.infer<typeof ReviewedMessage>

export const ReviewedConversation = InboxConversation.omit({ lastMessage: true }).extend({
  messages: z.array(ReviewedMessage),
  /** The support workflow (issue 23): its changes of state, who made them, when; the emails the visitor left. */
  events: z.array(ConversationEventResource),
  leads: z.array(z.string()),
})
export type ReviewedConversation = z.infer<typeof ReviewedConversation>

/** A vote as the API answers it. */
export const FeedbackResource = z
  .strictObject({
    id: z.string(),
    messageId: z.string(),
    conversationId: z.string(),
    vote: z.enum(VOTES),
    comment: z.string().nullable(),
    createdAt: time,
    updatedAt: time,
  })
  .meta({ id: 'Feedback' })
export type FeedbackResource = z.infer<typeof FeedbackResource>

/** One answer in the gap queue. */
export const GapItem = z.strictObject({
  messageId: z.string(),
  conversationId: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  channel: z.string(),
  question: z.string().describe('The question as the visitor typed it'),
  searchQuery: z.string().nullable().describe('What retrieval searched for (the standalone rewrite of a follow-up), when recorded'),
  answer: z.string(),
  topScore: z.number().nullable(),
  noSources: z.boolean(),
  badVotes: z.number().int(),
  comments: z.array(z.string()),
  createdAt: time,
})
export type GapItem = z.infer<typeof GapItem>

/** Answers to similar questions, newest first. */
export const GapGroup = z.strictObject({
  key: z.string().describe('The normalised question the group is keyed by'),
  question: z.string().describe('The newest question of the group, as typed'),
  count: z.number().int(),
  reasons: z.strictObject({ noSources: z.number().int(), weak: z.number().int(), votedDown: z.number().int() }),
  messageIds: z.array(z.string()),
  items: z.array(GapItem),
})
export type GapGroup = z.infer<typeof GapGroup>

export const GapsResolved = z.strictObject({ resolved: z.number().int(), datasourceId: z.string().optional() })
