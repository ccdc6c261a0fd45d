import type { TenantContext } from '@/lib/domain/tenant'
import { getPrisma } from '@/lib/db/client'
import { agentQueryLimit, usageMonth } from './agent-queries'
import { storedTokens, storedTokensLimit } from './stored-tokens'

/** GET /api/usage: this month's counters of the caller's organization, with the limits that apply to it. */
export interface UsageReport {
  /** "2026-11" (UTC); counters reset when the month changes. */
  month: string
  agentQueries: { used: number; limit: number }
  /** Tokens of content currently stored in the organization's datasources (not monthly). */
  storedTokens: { used: number; limit: number }
  datastoreQueries: { used: number }
  /** Tokens sent to and received from the chat model this month by agent queries. */
  modelTokens: { prompt: number; completion: number }
  /** Votes on answers given this month (first given this month, with their current value). */
  feedback: { good: number; bad: number }
}

export async function usageReport(ctx: TenantContext): Promise<UsageReport> {
  const prisma = await getPrisma()
  const month = usageMonth()
  const monthStart = new Date(`${month}-01T00:00:00.000Z`)
  const [usage, agentLimit, stored, storedLimit, votes] = await Promise.all([
    prisma.usage.findUnique({ where: { organizationId_month: { organizationId: ctx.organizationId, month } } }),
    agentQueryLimit(ctx.organizationId),
    storedTokens(ctx.organizationId),
    storedTokensLimit(ctx.organizationId),
    prisma.messageFeedback.groupBy({ by: ['vote'], where: { organizationId: ctx.organizationId, createdAt: { gte: monthStart } }, _count: { _all: true } }),
  ])
  const votesOf = (vote: string) => votes.find(v => v.vote === vote)?._count._all ?? 0
  return {
    month,
    agentQueries: { used: usage?.agentQueries ?? 0, limit: agentLimit },
    storedTokens: { used: stored, limit: storedLimit },
    datastoreQueries: { used: usage?.datastoreQueries ?? 0 },
    modelTokens: { prompt: usage?.promptTokens ?? 0, completion: usage?.completionTokens ?? 0 },
    feedback: { good: votesOf('good'), bad: votesOf('bad') },
  }
}
