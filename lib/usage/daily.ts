import { z } from 'zod'
import { getDatabase } from '@/lib/db/client'
import type { DailyUsage, DayCounts } from '@/lib/domain/account'
import { CONVERSATION_CHANNELS, type ConversationChannel } from '@/lib/domain/agents'
import type { TenantContext } from '@/lib/domain/tenant'
import { IdParam } from '@/lib/http/body'
import { usageDay } from './datastore-queries'

// Usage over time (GET /api/usage/daily): questions, answers voted up and down, model tokens and datastore queries per
// day (UTC) over the last `days` days, for the organization or one agent and/or one channel, with totals per agent
// and per channel. Votes count on the day they were first given, with their current value. Datastore queries are the
// API's datastore queries (POST /api/datastores/{id}/query and its aliases): they belong to no agent or channel, so
// the agent and channel filters leave them out (null).

export const DailyUsageParams = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30),
  agentId: IdParam.optional(),
  channel: z.enum(CONVERSATION_CHANNELS).optional(),
})
export type DailyUsageParams = z.infer<typeof DailyUsageParams>



interface Row {
  day: string
  agentId: string
  agentName: string
  channel: ConversationChannel
  questions: string | number
  good: string | number
  bad: string | number
  promptTokens: string | number
  completionTokens: string | number
}

const DAY_MS = 86_400_000
const zero = (): DayCounts => ({ questions: 0, good: 0, bad: 0, promptTokens: 0, completionTokens: 0 })

function add(into: DayCounts, r: Row) {
  into.questions += Number(r.questions)
  into.good += Number(r.good)
  into.bad += Number(r.bad)
  into.promptTokens += Number(r.promptTokens)
  into.completionTokens += Number(r.completionTokens)
}

/** Messages and votes per day, agent and channel (one query: the two counts are unioned, then summed). */
async function countRows(organizationId: string, since: string): Promise<Row[]> {
  const { sql } = await getDatabase()
  return sql.query<Row>(
    `SELECT t.day, t."agentId", a.name AS "agentName", t.channel,
            sum(t.questions) AS questions, sum(t.good) AS good, sum(t.bad) AS bad,
            sum(t."promptTokens") AS "promptTokens", sum(t."completionTokens") AS "completionTokens"
       FROM (
         SELECT to_char(m."createdAt", 'YYYY-MM-DD') AS day, c."agentId", c.channel::text AS channel,
                count(*) FILTER (WHERE m.role = 'user') AS questions, 0 AS good, 0 AS bad,
                coalesce(sum(m."promptTokens"), 0) AS "promptTokens", coalesce(sum(m."completionTokens"), 0) AS "completionTokens"
           FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
          WHERE c."organizationId" = $1 AND m."createdAt" >= $2::timestamp
          GROUP BY 1, 2, 3
         UNION ALL
         SELECT to_char(f."createdAt", 'YYYY-MM-DD'), c."agentId", c.channel::text,
                0, count(*) FILTER (WHERE f.vote = 'good'), count(*) FILTER (WHERE f.vote = 'bad'), 0, 0
           FROM "MessageFeedback" f JOIN "Message" m ON m.id = f."messageId" JOIN "Conversation" c ON c.id = m."conversationId"
          WHERE f."organizationId" = $1 AND f."createdAt" >= $2::timestamp
          GROUP BY 1, 2, 3
       ) t JOIN "Agent" a ON a.id = t."agentId"
      GROUP BY 1, 2, 3, 4`,
    [organizationId, since],
  )
}

export async function dailyUsage(ctx: TenantContext, params: DailyUsageParams, now = new Date()): Promise<DailyUsage> {
  const to = usageDay(now)
  const from = usageDay(new Date(Date.parse(`${to}T00:00:00.000Z`) - (params.days - 1) * DAY_MS))
  const { sql } = await getDatabase()
  const [rows, stored] = await Promise.all([
    countRows(ctx.organizationId, `${from}T00:00:00.000Z`),
    sql.query<{ day: string; datastoreQueries: number }>(
      `SELECT day, "datastoreQueries" FROM "UsageDay" WHERE "organizationId" = $1 AND day >= $2 AND day <= $3`,
      [ctx.organizationId, from, to],
    ),
  ])
  const filtered = params.agentId || params.channel
  const queries = new Map(stored.map(r => [r.day, Number(r.datastoreQueries)]))
  const days = new Map<string, DailyUsage['days'][number]>()
  for (let t = Date.parse(`${from}T00:00:00.000Z`); t <= Date.parse(`${to}T00:00:00.000Z`); t += DAY_MS) {
    const day = usageDay(new Date(t))
    days.set(day, { day, ...zero(), datastoreQueries: filtered ? null : (queries.get(day) ?? 0) })
  }
  const byAgent = new Map<string, DailyUsage['byAgent'][number]>()
  const byChannel = new Map<string, DailyUsage['byChannel'][number]>()
  for (const r of rows) {
    const agentOk = !params.agentId || r.agentId === params.agentId
    const channelOk = !params.channel || r.channel === params.channel
    const day = days.get(r.day)
    if (day && agentOk && channelOk) add(day, r)
    if (channelOk) add(byAgent.get(r.agentId) ?? byAgent.set(r.agentId, { agentId: r.agentId, agentName: r.agentName, ...zero() }).get(r.agentId)!, r)
    if (agentOk) add(byChannel.get(r.channel) ?? byChannel.set(r.channel, { channel: r.channel, ...zero() }).get(r.channel)!, r)
  }
  const byQuestions = (a: DayCounts, b: DayCounts) => b.questions - a.questions
  return { from, to, days: [...days.values()], byAgent: [...byAgent.values()].sort(byQuestions), byChannel: [...byChannel.values()].sort(byQuestions) }
}
