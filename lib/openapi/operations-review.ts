import { EvalAnswerBody, FeedbackBody } from '@/lib/feedback/schemas'
import { GapAnswerBody, GapDismissBody, GapListParams } from '@/lib/gaps/schemas'
import { InboxExportParams } from '@/lib/inbox/filters'
import { DailyUsageParams } from '@/lib/usage/daily'
import type { Operation } from './operations'

// The operations of issues 14.6 and 15: votes on answers, the conversation inbox's reading and export, the
// knowledge-gap queue, usage per day. (GET /api/conversations, with the inbox's filters, is in operations.ts.)

const Vote = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    messageId: { type: 'string' },
    conversationId: { type: 'string' },
    vote: { enum: ['good', 'bad'] },
    comment: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'messageId', 'conversationId', 'vote', 'comment', 'createdAt', 'updatedAt'],
}

const VOTER =
  'One vote per voter per answer; voting again changes it (201 for a first vote, 200 for a change). The voter is the dashboard user, the API key, or — with `visitorId`, which must be the conversation\'s visitor — that visitor (a public agent\'s visitor needs no key). A message the caller may not see is a 404. Emits the webhook event `feedback.created`.'

export const REVIEW_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/api/conversations/{id}/messages/{messageId}/feedback',
    summary: 'Vote on an answer: thumbs up (`good`) or down (`bad`), with an optional comment',
    description: `${VOTER} \`up\`/\`down\` and Chaindesk's field \`eval\` are accepted too.`,
    tag: 'Conversations',
    auth: 'conversation',
    body: FeedbackBody,
    response: Vote,
    status: 201,
  },
  {
    method: 'post',
    path: '/api/conversations/eval-answer',
    summary: "Chaindesk's vote on an answer: `{messageId, visitorId?, eval: 'good' | 'bad'}`",
    description: VOTER,
    tag: 'Conversations',
    auth: 'conversation',
    body: EvalAnswerBody,
    response: Vote,
  },
  {
    method: 'get',
    path: '/api/conversations/{id}/messages',
    summary: 'A conversation as the inbox opens it: messages with sources, searched query, best score and votes',
    tag: 'Conversations',
    auth: 'key',
    response: { type: 'object' },
  },
  {
    method: 'get',
    path: '/api/conversations/export',
    summary: 'The filtered conversations with their messages: JSONL (one conversation a line) or CSV (one message a line)',
    tag: 'Conversations',
    auth: 'key',
    query: InboxExportParams,
    response: { type: 'string' },
  },
  {
    method: 'get',
    path: '/api/gaps',
    summary: 'The knowledge-gap queue: answers with no or weak sources and answers voted down, grouped by similar question',
    tag: 'Conversations',
    auth: 'key',
    query: GapListParams,
    response: { type: 'array', items: { type: 'object' } },
  },
  { method: 'post', path: '/api/gaps/dismiss', summary: 'Take answers out of the gap queue', tag: 'Conversations', auth: 'key', body: GapDismissBody, response: { type: 'object' } },
  {
    method: 'post',
    path: '/api/gaps/answer',
    summary: 'Add the missing answer: a text datasource in the chosen datastore; the gaps are marked answered',
    tag: 'Conversations',
    auth: 'key',
    body: GapAnswerBody,
    response: { type: 'object', properties: { resolved: { type: 'integer' }, datasourceId: { type: 'string' } } },
    status: 201,
  },
  { method: 'get', path: '/api/usage/daily', summary: 'Questions, votes, tokens and datastore queries per day (30 days by default)', tag: 'Account', auth: 'key', query: DailyUsageParams, response: { type: 'object' } },
]
