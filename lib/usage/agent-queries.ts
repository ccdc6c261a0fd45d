import { config } from '@/lib/config'
import type { StatementPart } from '@/lib/db/statement-parts'
import { getDatabase, getPrisma } from '@/lib/db/client'
import { PaymentRequired } from '@/lib/http/errors'

// Agent queries are counted per organization per calendar month (UTC), in the Usage row of that month.

/** "2026-11": the month a counter belongs to, in UTC. */
export function usageMonth(at = new Date()): string {
  return at.toISOString().slice(0, 7)
}

/** The organization's monthly agent-query limit: its UsageLimit override, else LIMIT_AGENT_QUERIES. */
export async function agentQueryLimit(organizationId: string): Promise<number> {
  const prisma = await getPrisma()
  const override = await prisma.usageLimit.findUnique({ where: { organizationId } })
  return override?.maxAgentQueries ?? config().LIMIT_AGENT_QUERIES
}

export interface AgentQueryReservation {
  organizationId: string
  month: string
  /** Whether this answer counted a query: the continuation of an answer after an operator's decision does not. */
  counted: boolean
}

/** The statement that counts one agent query when the month's limit allows it, returning the count (none: refused). */
function reservationSql(first: number): string {
  return `WITH lim AS (
       SELECT COALESCE((SELECT "maxAgentQueries" FROM "UsageLimit" WHERE "organizationId" = $${first}), $${first + 2}::int) AS value
     )
     INSERT INTO "Usage" ("organizationId", "month", "agentQueries")
     SELECT $${first}, $${first + 1}, 1 FROM lim WHERE lim.value > 0
     ON CONFLICT ("organizationId", "month") DO UPDATE SET "agentQueries" = "Usage"."agentQueries" + 1
       WHERE "Usage"."agentQueries" < (SELECT value FROM lim)
     RETURNING "agentQueries"`
}

// Organizations this process saw at their limit, with the month: their queries reserve apart, before the question's
// statement (see counted below), so that a refused query starts nothing (no call to the embeddings provider)
const refusedIn = new Map<string, string>()

/**
 * Counts one agent query, or throws PaymentRequired (402) when the month's limit is used up. One statement, so that
 * concurrent queries can never pass the limit together: the upsert locks the month's row and re-checks the count.
 */
export async function reserveAgentQuery(organizationId: string): Promise<AgentQueryReservation> {
  const { sql } = await getDatabase()
  const month = usageMonth()
  const rows = await sql.query<{ agentQueries: number }>(reservationSql(1), [organizationId, month, config().LIMIT_AGENT_QUERIES])
  if (rows.length === 0) return agentQueryRefused(organizationId, month)
  refusedIn.delete(organizationId)
  return { organizationId, month, counted: true }
}

/** Throws the 402 of an organization whose month's limit is used up (and remembers it: see refusedIn). */
export async function agentQueryRefused(organizationId: string, month: string): Promise<never> {
  refusedIn.set(organizationId, month)
  const limit = await agentQueryLimit(organizationId)
  throw new PaymentRequired('agentQueries', `The monthly limit of ${limit} agent queries is reached for ${month}; it resets at the start of next month (UTC)`)
}

/**
 * One agent query counted by the statement that stores the question (issue 28: one exchange with the database fewer
 * a question), as its WITH query `reserved`, which the question's writes require: refused, nothing is written, and
 * the caller throws agentQueryRefused. Null for an organization this process saw at its limit this month: it reserves
 * apart (reserveAgentQuery), first.
 */
export function agentQueryInStatement(organizationId: string): { reservation: AgentQueryReservation; part: StatementPart; refused: () => Promise<never> } | null {
  const month = usageMonth()
  if (refusedIn.get(organizationId) === month) return null
  return {
    reservation: { organizationId, month, counted: true },
    part: first => ({ sql: reservationSql(first), params: [organizationId, month, config().LIMIT_AGENT_QUERIES] }),
    refused: () => agentQueryRefused(organizationId, month),
  }
}

/**
 * The usage an answer continued after an operator's approval belongs to (issue 25): the visitor's question was counted
 * when it was asked, so the continuation counts no second query, only the model's tokens, even at the month's limit.
 */
export function continuedAgentQuery(organizationId: string): AgentQueryReservation {
  return { organizationId, month: usageMonth(), counted: false }
}

/** Gives a reserved query back, when the model never answered it. */
export async function releaseAgentQuery(reservation: AgentQueryReservation): Promise<void> {
  if (!reservation.counted) return
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "Usage" SET "agentQueries" = "agentQueries" - 1
     WHERE "organizationId" = $1 AND "month" = $2 AND "agentQueries" > 0`,
    [reservation.organizationId, reservation.month],
  )
}

/**
 * The model's tokens added to the month's usage, as a part of the statement that stores the answer
 * (lib/db/statement-parts.ts); none without tokens. A counted query's month has its row (the reservation wrote it);
 * a continuation's may not (a question asked on the 31st, approved on the 1st): its tokens create the row.
 */
export function modelTokensRecorded(reservation: AgentQueryReservation, tokens: { promptTokens?: number; completionTokens?: number }): StatementPart | undefined {
  if (!tokens.promptTokens && !tokens.completionTokens) return undefined
  return first => ({
    sql: reservation.counted
      ? `UPDATE "Usage" SET "promptTokens" = "promptTokens" + $${first + 2}::int, "completionTokens" = "completionTokens" + $${first + 3}::int
     WHERE "organizationId" = $${first} AND "month" = $${first + 1}`
      : `INSERT INTO "Usage" ("organizationId", "month", "promptTokens", "completionTokens") VALUES ($${first}, $${first + 1}, $${first + 2}::int, $${first + 3}::int)
     ON CONFLICT ("organizationId", "month") DO UPDATE
       SET "promptTokens" = "Usage"."promptTokens" + EXCLUDED."promptTokens", "completionTokens" = "Usage"."completionTokens" + EXCLUDED."completionTokens"`,
    params: [reservation.organizationId, reservation.month, tokens.promptTokens ?? 0, tokens.completionTokens ?? 0],
  })
}
