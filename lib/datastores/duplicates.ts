import { z } from 'zod'
import { createHash } from 'node:crypto'
import { getDatabase } from '@/lib/db/client'

// Duplicate detection (README "Duplicates"): the SHA-256 of an uploaded file's bytes or an upserted document's text is
// kept in the datasource's config (`sha256`, not shown by the API); a second upload of the same content to the same
// datastore is answered with the datasource that holds it, and not indexed again, unless the caller passes
// `allowDuplicates=true`. The look-up is one probe a hash of an expression index keyed by the datastore and the hash
// together (migration 20261128140000).

/** The content's SHA-256, hex. */
export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex')
}

export interface DuplicateHolder {
  id: string
  name: string
}

/**
 * The statement of findHolders: the key `datastoreId sha256` is the index's expression and no other index's, so the
 * planner cannot read the datastore's datasources one by one instead, with or without statistics.
 */
export function holdersStatement(datastoreId: string, hashes: string[]): { text: string; params: unknown[] } {
  return {
    text: `SELECT id, name, config->>'sha256' AS sha256 FROM "Datasource"
      WHERE config ? 'sha256' AND ("datastoreId" || ' ' || (config->>'sha256')) = ANY($1::text[])
      ORDER BY "createdAt", id`,
    params: [[...new Set(hashes)].map(hash => `${datastoreId} ${hash}`)],
  }
}

/** The datasources of the datastore that already hold these hashes (the oldest one of each), by hash. */
export async function findHolders(datastoreId: string, hashes: string[]): Promise<Map<string, DuplicateHolder>> {
  const holders = new Map<string, DuplicateHolder>()
  if (hashes.length === 0) return holders
  const { sql } = await getDatabase()
  const statement = holdersStatement(datastoreId, hashes)
  const rows = await sql.query<{ id: string; name: string; sha256: string }>(statement.text, statement.params)
  for (const row of rows) if (!holders.has(row.sha256)) holders.set(row.sha256, { id: row.id, name: row.name })
  return holders
}

/** What the API document says of duplicate files on both upload endpoints. */
export const DUPLICATES_RULE =
  'A file (or document) whose content a datasource of the same datastore already holds is not stored or indexed again: the answer is that datasource with `"duplicate": true` (status 200). `?allowDuplicates=true` indexes a copy anyway.'

/** `?allowDuplicates=true` (or 1): index a copy of content the datastore already holds. Any other value: don't. */
export const DuplicatesParams = z.object({
  allowDuplicates: z
    .string()
    .optional()
    .transform(v => v === 'true' || v === '1')
    .describe('true: index a copy of content the datastore already holds'),
})
