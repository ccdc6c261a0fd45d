// The inbox's calls to the API, by the endpoints' declarations (components/api-client.ts).
import { api, apiUrl, type RequestOf } from '@/components/api-client'
// type-only, erased from the browser bundle
import type { InboxConversation, InboxPage, ReviewedConversation, ReviewedMessage } from '@/lib/domain/inbox'

export type { InboxConversation, InboxPage, ReviewedConversation, ReviewedMessage }

/** The inbox's filters: the query parameters of the list, without its paging. */
export type InboxFilterValues = Omit<NonNullable<RequestOf<'GET /api/conversations'>['query']>, 'cursor' | 'limit'>

export const inboxQueryKey = (filters: InboxFilterValues) => ['inbox', filters] as const

/** One page of the filtered conversations, most recently active first. */
export const fetchInboxPage = (filters: InboxFilterValues, cursor?: string, limit = 50) => api('GET /api/conversations', { query: { ...filters, cursor, limit } })

/** A conversation with its messages' retrieval record and votes. */
export const fetchReview = (id: string) => api('GET /api/conversations/{id}/messages', { params: { id } })

/** The download link of the filtered conversations as JSONL or CSV. */
export const exportHref = (filters: InboxFilterValues, format: 'jsonl' | 'csv') => apiUrl('GET /api/conversations/export', { query: { ...filters, format } })

/** The support workflow (issue 23): change a conversation's state, reply as an operator, the members to assign to. */
export type ConversationUpdate = NonNullable<RequestOf<'PATCH /api/conversations/{id}'>['body']>
export const updateConversation = (id: string, body: ConversationUpdate) => api('PATCH /api/conversations/{id}', { params: { id }, body })
export const sendOperatorReply = (id: string, message: string) => api('POST /api/conversations/{id}/message', { params: { id }, body: { message, from: 'agent' } })
export const fetchMembers = () => api('GET /api/members', {})

/** How often the inbox looks for new messages and new conversations (ms). */
export const INBOX_POLL_MS = 4_000

/** Tool calls waiting for an operator's approval (issue 25), and the decision on one. */
export const fetchApprovals = (id: string) => api('GET /api/conversations/{id}/approvals', { params: { id } })
export const decideApproval = (id: string, approvalId: string, decision: 'approve' | 'deny') =>
  api('POST /api/conversations/{id}/approvals/{approvalId}', { params: { id, approvalId }, body: { decision } })
