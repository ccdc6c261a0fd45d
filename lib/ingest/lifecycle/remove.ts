import { removeStoredOriginal } from '@/lib/db/blob-store'
import { getDatabase } from '@/lib/db/client'
import { logger } from '@/lib/logger'

/**
 * Removes datasources with their chunks (foreign-key cascade; a site's pages with it) and their stored originals:
 * the one deletion path of the lifecycle (pages a site refresh prunes). Returns the ids removed.
 */
export async function removeDatasources(ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const { sql } = await getDatabase()
  const rows = await sql.query<{ id: string }>(`DELETE FROM "Datasource" WHERE id = ANY($1::text[]) RETURNING id`, [ids])
  for (const { id } of rows) {
    await removeStoredOriginal(id).catch(error => logger.warn('could not remove a datasource original', { datasourceId: id, error }))
  }
  return rows.map(r => r.id)
}

/** Pages of a site pruned outside its discovery (404/410 twice in a row) count in its refresh's `removed`. */
export async function countRemovedPages(siteId: string, removed: number): Promise<void> {
  if (removed === 0) return
  const { sql } = await getDatabase()
  await sql.query(
    `UPDATE "Datasource" SET "refreshStats" = jsonb_set(COALESCE("refreshStats", '{}'::jsonb), '{removed}', to_jsonb(COALESCE(("refreshStats"->>'removed')::int, 0) + $2)) WHERE id = $1`,
    [siteId, removed],
  )
}
