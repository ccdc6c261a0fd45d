import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'

/**
 * Tokens of content an organization stores: the sum of its datasources' nbTokens (what their chunks hold now).
 * A group (a web site) holds no chunks itself, its pages do: its own nbTokens stays 0 (the lifecycle writes token
 * counts only with chunks), so nothing counts twice.
 */
export async function storedTokens(organizationId: string): Promise<number> {
  const { sql } = await getDatabase()
  return (await storedTokensByOrganization(sql, [organizationId])).get(organizationId) ?? 0
}

/** The stored tokens of several organizations, read through `db` (a transaction that locked them, when exactness matters). */
export async function storedTokensByOrganization(
  db: { query<T>(text: string, params?: unknown[]): Promise<T[]> },
  organizationIds: string[],
): Promise<Map<string, number>> {
  const sums = await db.query<{ organizationId: string; total: string | number }>(
    `SELECT "organizationId", COALESCE(SUM("nbTokens"), 0) AS total FROM "Datasource" WHERE "organizationId" = ANY($1::text[]) GROUP BY "organizationId"`,
    [organizationIds],
  )
  return new Map(sums.map(s => [s.organizationId, Number(s.total)]))
}

/** The organization's stored-token limit: its UsageLimit.maxStoredTokens, else LIMIT_STORED_TOKENS. */
export async function storedTokensLimit(organizationId: string): Promise<number> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId }, select: { maxStoredTokens: true } })
  return limits?.maxStoredTokens ?? config().LIMIT_STORED_TOKENS
}
