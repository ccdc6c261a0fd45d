import { config } from '@/lib/config'
import { getDatabase } from '@/lib/db/client'

/**
 * Tokens of content an organization stores: the sum of its datasources' nbTokens (what their chunks hold now).
 * A web_site holds no chunks itself (its pages do): it is left out, so that totals shown on it never count twice.
 */
export async function storedTokens(organizationId: string): Promise<number> {
  const { sql } = await getDatabase()
  const [row] = await sql.query<{ total: string | number | null }>(STORED_TOKENS_SQL, [organizationId])
  return Number(row?.total ?? 0)
}

/** The same sum as one statement ($1: the organization id), for use inside a transaction. */
export const STORED_TOKENS_SQL = `SELECT COALESCE(SUM("nbTokens"), 0) AS total FROM "Datasource" WHERE "organizationId" = $1 AND type <> 'web_site'`

/** The organization's stored-token limit: its UsageLimit.maxStoredTokens, else LIMIT_STORED_TOKENS. */
export async function storedTokensLimit(organizationId: string): Promise<number> {
  const { prisma } = await getDatabase()
  const limits = await prisma.usageLimit.findUnique({ where: { organizationId }, select: { maxStoredTokens: true } })
  return limits?.maxStoredTokens ?? config().LIMIT_STORED_TOKENS
}
