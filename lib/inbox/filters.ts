import { z } from 'zod'
import { CONVERSATION_CHANNELS, CONVERSATION_STATUSES } from '@/lib/domain/agents'
import { IdParam } from '@/lib/http/body'
import { weakSql } from '@/lib/gaps/weak'

// The conversation inbox's filters (GET /api/conversations and its export) and the SQL they stand for.
// Every condition is on a conversation aliased `c`; values go as parameters, never into the text.

const Day = /^\d{4}-\d{2}-\d{2}$/
const Instant = z
  .string()
  .max(40)
  .refine(s => Day.test(s) || !Number.isNaN(Date.parse(s)), 'must be a date (YYYY-MM-DD) or an ISO 8601 time')

export const InboxFilters = z.object({
  agentId: IdParam.optional(),
  channel: z.enum(CONVERSATION_CHANNELS).optional(),
  /** Started on or after (a day: from its start, UTC). */
  from: Instant.optional(),
  /** Started on or before (a day: to its end, UTC). */
  to: Instant.optional(),
  /** Words in the title or in any message, case-insensitive. */
  q: z.string().trim().max(200).optional(),
  /** good: an answer voted up; bad: voted down; none: no vote at all. `up` / `down` are the same. */
  feedback: z
    .enum(['good', 'bad', 'none', 'up', 'down'])
    .transform(v => (v === 'up' ? 'good' : v === 'down' ? 'bad' : v))
    .optional(),
  /** none: an answer found no source; weak: an answer found none or only weak matches (lib/gaps/weak.ts). */
  sources: z.enum(['none', 'weak']).optional(),
  /** The support workflow (issue 23): the status, the member it is assigned to ("none": nobody), who answers. */
  status: z.enum(CONVERSATION_STATUSES).optional(),
  assigneeId: IdParam.optional(),
  aiEnabled: z.enum(['true', 'false']).transform(v => v === 'true').optional(),
})
export type InboxFilters = z.infer<typeof InboxFilters>

export const InboxListParams = InboxFilters.extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
})
export type InboxListParams = z.infer<typeof InboxListParams>

export const InboxExportParams = InboxFilters.extend({ format: z.enum(['jsonl', 'csv']).default('jsonl') })

const DAY_MS = 86_400_000
const startOf = (s: string) => new Date(Day.test(s) ? `${s}T00:00:00.000Z` : s).toISOString()
const endOf = (s: string) => (Day.test(s) ? new Date(Date.parse(`${s}T00:00:00.000Z`) + DAY_MS) : new Date(Date.parse(s) + 1)).toISOString()
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, m => `\\${m}`)}%`

// a vote on a message of c (nested EXISTS: each side walks its own index, Message(conversationId, …) then
// MessageFeedback(messageId, …); a join here made "no vote" a scan, 0.5 s at 5,000 conversations)
const feedbackOfC = (vote: string | null) =>
  `SELECT 1 FROM "Message" fm WHERE fm."conversationId" = c.id AND EXISTS (SELECT 1 FROM "MessageFeedback" f WHERE f."messageId" = fm.id${vote ? ` AND f.vote = ${vote}` : ''})`

/**
 * The WHERE clause of the filters (organization first) and its parameters, numbered from $1. `agentIds`: the agents an
 * API key is limited to (issue 24), whose conversations alone it sees.
 */
export function inboxWhere(organizationId: string, f: InboxFilters, agentIds?: readonly string[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId]
  const p = (value: unknown) => `$${params.push(value)}`
  const conditions = [`c."organizationId" = $1`]
  if (agentIds) conditions.push(`c."agentId" = ANY(${p([...agentIds])}::text[])`)
  if (f.agentId) conditions.push(`c."agentId" = ${p(f.agentId)}`)
  if (f.channel) conditions.push(`c.channel::text = ${p(f.channel)}`)
  if (f.from) conditions.push(`c."createdAt" >= ${p(startOf(f.from))}::timestamp`)
  if (f.to) conditions.push(`c."createdAt" < ${p(endOf(f.to))}::timestamp`)
  if (f.q) {
    const like = p(likePattern(f.q))
    conditions.push(`(c.title ILIKE ${like} OR EXISTS (SELECT 1 FROM "Message" qm WHERE qm."conversationId" = c.id AND qm.text ILIKE ${like}))`)
  }
  if (f.feedback === 'none') conditions.push(`NOT EXISTS (${feedbackOfC(null)})`)
  else if (f.feedback) conditions.push(`EXISTS (${feedbackOfC(p(f.feedback))})`)
  if (f.sources) {
    const test = f.sources === 'none' ? `sm."noSources"` : weakSql('sm')
    conditions.push(`EXISTS (SELECT 1 FROM "Message" sm WHERE sm."conversationId" = c.id AND sm.role = 'assistant' AND ${test})`)
  }
  if (f.status) conditions.push(`c.status::text = ${p(f.status)}`)
  if (f.assigneeId === 'none') conditions.push(`c."assigneeId" IS NULL`)
  else if (f.assigneeId) conditions.push(`c."assigneeId" = ${p(f.assigneeId)}`)
  if (f.aiEnabled !== undefined) conditions.push(`c."isAiEnabled" = ${p(f.aiEnabled)}`)
  return { sql: conditions.join(' AND '), params }
}
