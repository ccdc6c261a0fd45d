import { safeKey, type BlobEntry, type StoredBlob } from './blob-files'
import type { SqlStatements } from './sql-driver'

// The "Blob" table: every original on PostgreSQL (any worker on any machine reads what any web process stored), and
// the small ones in the embedded database (lib/db/blob-store.ts).

// 4 parameters a row, far below PostgreSQL's 65,535; and a few megabytes a statement: the embedded database's
// WebAssembly memory holds a whole statement while it runs, and grows for good to do so
const ROWS_A_STATEMENT = 500
const BYTES_A_STATEMENT = 4 * 1024 * 1024

/** Stores the entries, replacing the keys already stored: one statement for up to 500 (or 4 MB). */
export async function putBlobRows(sql: SqlStatements, entries: BlobEntry[]): Promise<void> {
  for (const part of statementsOf(entries)) {
    const values = part.map((_, i) => `($${4 * i + 1}, $${4 * i + 2}::bytea, $${4 * i + 3}, $${4 * i + 4}::int)`).join(', ')
    await sql.query(
      `INSERT INTO "Blob" (key, data, "contentType", size) VALUES ${values}
       ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, "contentType" = EXCLUDED."contentType", size = EXCLUDED.size`,
      part.flatMap(e => [safeKey(e.key), e.data, e.contentType, e.data.byteLength]),
    )
  }
}

function statementsOf(entries: BlobEntry[]): BlobEntry[][] {
  const parts: BlobEntry[][] = []
  let bytes = Infinity
  for (const entry of entries) {
    if (bytes + entry.data.byteLength > BYTES_A_STATEMENT || parts[parts.length - 1].length >= ROWS_A_STATEMENT) {
      parts.push([])
      bytes = 0
    }
    parts[parts.length - 1].push(entry)
    bytes += entry.data.byteLength
  }
  return parts
}

export async function getBlobRow(sql: SqlStatements, key: string): Promise<StoredBlob | null> {
  const [row] = await sql.query<{ data: Uint8Array; contentType: string }>(`SELECT data, "contentType" FROM "Blob" WHERE key = $1`, [safeKey(key)])
  return row ? { data: new Uint8Array(row.data), contentType: row.contentType } : null
}

/** The rows of these keys that exist, by key: one statement. */
export async function getBlobRows(sql: SqlStatements, keys: string[]): Promise<Map<string, StoredBlob>> {
  if (keys.length === 0) return new Map()
  const rows = await sql.query<{ key: string; data: Uint8Array; contentType: string }>(`SELECT key, data, "contentType" FROM "Blob" WHERE key = ANY($1::text[])`, [keys.map(safeKey)])
  return new Map(rows.map(r => [r.key, { data: new Uint8Array(r.data), contentType: r.contentType }]))
}

export async function removeBlobRows(sql: SqlStatements, keys: string[]): Promise<void> {
  if (keys.length > 0) await sql.query(`DELETE FROM "Blob" WHERE key = ANY($1::text[])`, [keys.map(safeKey)])
}
