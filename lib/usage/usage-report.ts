import type { UsageReport } from '@/lib/domain/account'
import type { TenantContext } from '@/lib/domain/tenant'
import { getPrisma } from '@/lib/db/client'
import { agentQueryLimit, usageMonth } from './agent-queries'
import { storedTokens, storedTokensLimit } from './stored-tokens'


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

export type { UsageReport }
