// The inbox's calls to the API: the only module of components/inbox that knows a URL.
import { apiFetch } from '@/components/api-client'
// type-only, erased from the browser bundle
import type { InboxConversation, InboxPage, ReviewedConversation, ReviewedMessage } from '@/lib/inbox/types'

export type { InboxConversation, InboxPage, ReviewedConversation, ReviewedMessage }

export interface InboxFilterValues {
  agentId?: string
  channel?: 'api' | 'dashboard' | 'website'
  from?: string
  to?: string
  q?: string
  feedback?: 'good' | 'bad' | 'none'
  sources?: 'none' | 'weak'
}

function searchOf(filters: InboxFilterValues, extra: Record<string, string | undefined> = {}) {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value)
  return params.toString()
}

export const inboxQueryKey = (filters: InboxFilterValues) => ['inbox', filters] as const

/** One page of the filtered conversations (GET /api/conversations), most recently active first. */
export function fetchInboxPage(filters: InboxFilterValues, cursor?: string, limit = 50): Promise<InboxPage> {
  return apiFetch(`/api/conversations?${searchOf(filters, { cursor, limit: String(limit) })}`)
}

/** A conversation with its messages' retrieval record and votes. */
export function fetchReview(conversationId: string): Promise<ReviewedConversation> {
  return apiFetch(`/api/conversations/${encodeURIComponent(conversationId)}/messages`)
}

/** The download link of the filtered conversations as JSONL or CSV. */
export function exportHref(filters: InboxFilterValues, format: 'jsonl' | 'csv'): string {
  return `/api/conversations/export?${searchOf(filters, { format })}`
}
