import type { TenantContext } from '@/lib/domain/tenant'
import { votesOf } from '@/lib/feedback/feedback'
import type { InboxFilters } from './filters'
import { listInbox } from './list'
import { loadMessages, toReviewed } from './review'
import type { InboxConversation, ReviewedMessage } from '@/lib/domain/inbox'

// Export of the filtered conversations, in the inbox's order, a page at a time (memory stays flat however many):
// JSONL, one conversation per line with its messages; or CSV, one message per line with its conversation's fields.

const PAGE = 100

/** The media type of each export format. */
export const EXPORT_MEDIA_TYPES = { jsonl: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const

export const CSV_COLUMNS = [
  'conversation_id', 'agent_id', 'agent_name', 'channel', 'visitor_id', 'conversation_created_at',
  'message_id', 'role', 'text', 'error', 'created_at', 'search_query', 'top_score', 'no_sources',
  'votes_good', 'votes_bad', 'comments', 'sources',
] as const

// OWASP's rule against CSV injection (issue 22): a spreadsheet runs a cell starting with these as a formula, so a
// visitor's question "=HYPERLINK(…)" would be live in the export. Text starting with one gets a leading "'".
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. Text that a spreadsheet would take
 * for a formula is prefixed with "'"; numbers are written as they are.
 */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value)
  if (typeof value === 'string' && FORMULA_START.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

function csvRow(c: InboxConversation, m: ReviewedMessage): string {
  const sources = [...new Set(m.sources.map(s => s.source || s.datasource_name))].join(' | ')
  return [
    c.id, c.agentId, c.agentName, c.channel, c.visitorId, c.createdAt,
    m.id, m.role, m.text, m.error, m.createdAt, m.searchQuery, m.topScore, m.role === 'assistant' ? m.noSources : '',
    m.votes.good, m.votes.bad, m.votes.comments.join(' | '), sources,
  ].map(csvField).join(',')
}

/** The export's lines (each ending with a line break), produced as they are read. */
export async function* exportConversations(ctx: TenantContext, filters: InboxFilters, format: 'jsonl' | 'csv'): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`
  let cursor: string | undefined
  do {
    const page = await listInbox(ctx, { ...filters, limit: PAGE, cursor })
    const messages = await loadMessages(page.items.map(c => c.id))
    const votes = await votesOf(messages.filter(m => m.role === 'assistant').map(m => m.id))
    const byConversation = new Map<string, typeof messages>()
    for (const m of messages) byConversation.set(m.conversationId, [...(byConversation.get(m.conversationId) ?? []), m])
    for (const c of page.items) {
      const reviewed = (byConversation.get(c.id) ?? []).map(m => toReviewed(m, votes))
      if (format === 'csv') {
        for (const m of reviewed) yield `${csvRow(c, m)}\r\n`
      } else {
        const { lastMessage: _last, ...fields } = c
        yield `${JSON.stringify({ ...fields, messages: reviewed })}\n`
      }
    }
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}
