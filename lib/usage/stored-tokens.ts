import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'

/**
 * Tokens of content an organization stores: the sum of its datasources' nbTokens (what their chunks hold now).
 * A group (a web site) holds no chunks itself, its pages do: its own nbTokens stays 0 (the lifecycle writes token
 * counts only with chunks), so nothing counts twice.
 */
export async function storedTokens(organizationId: string): Promise<number> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<{ total: string | number | null }>(
    `SELECT COALESCE(SUM("nbTokens"), 0) AS total FROM "Datasource" WHERE "organizationId" = $1`,
    [organizationId],
  )
  return Number(row?.total ?? 0)
}

/** The organization's stored-token limit: its UsageLimit.maxStoredTokens, else LIMIT_STORED_TOKENS. */
export async function storedTokensLimit(organizationId: string): Promise<number> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId }, select: { maxStoredTokens: true } })
  return limits?.maxStoredTokens ?? config().LIMIT_STORED_TOKENS
}
