import fs from 'node:fs/promises'
import path from 'node:path'
import { fileBlobStore } from './blob-store'
import type { Database } from './client'
import type { SqlDriver } from './sql-driver'

// Copies the embedded database (PGlite and its DATA_DIR/blobs files) into an empty PostgreSQL with the same
// migrations applied: `npm run migrate-to-postgres` (scripts/migrate-to-postgres.ts). Every table's rows go over as
// text and are cast back to the column's type on the target, so every type (enums, json, vectors, bytea, arrays,
// timestamps) arrives exactly; generated columns are computed again by the target. The tables' own triggers (those
// that keep the full-text statistics as chunks are written) are off during the copy, inside its transaction, since
// the rows they would derive are copied too; foreign keys stay checked.

export interface CopyReport {
  tables: { table: string; rows: number }[]
  blobs: number
}

type Query = Pick<SqlDriver, 'query'>
interface Column { name: string; type: string }
interface Table { name: string; columns: Column[]; selfKeys: string[] }

const BATCH_ROWS = 500

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** The schema's tables (without Prisma's bookkeeping), parents before children, with the columns to copy. */
async function tablesOf(sql: Query): Promise<Table[]> {
  const names = (await sql.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname <> '_prisma_migrations' ORDER BY relname`,
  )).map(r => r.name)
  const links = await sql.query<{ child: string; parent: string; columns: string[] }>(
    `SELECT ch.relname AS child, pa.relname AS parent,
            ARRAY(SELECT attname::text FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = ANY(c.conkey)) AS columns
       FROM pg_constraint c JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
  )
  const ordered: string[] = []
  const pending = new Set(names)
  while (pending.size > 0) {
    const ready = [...pending].filter(t => links.every(l => l.child !== t || l.parent === t || !pending.has(l.parent)))
    if (ready.length === 0) throw new Error(`foreign keys form a cycle between ${[...pending].join(', ')}`)
    for (const t of ready) { ordered.push(t); pending.delete(t) }
  }
  return Promise.all(ordered.map(async name => ({
    name,
    columns: await sql.query<Column>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [quote(name)],
    ),
    selfKeys: links.filter(l => l.child === name && l.parent === name).flatMap(l => l.columns),
  })))
}

async function countRows(sql: Query, table: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table)}`)
  return row.n
}

/** One table's rows, batch by batch in physical order; a table referring to itself: its roots first, then the rest. */
async function copyTable(source: Query, target: Query, table: Table): Promise<void> {
  const list = table.columns.map(c => quote(c.name)).join(', ')
  const asText = table.columns.map(c => `${quote(c.name)}::text`).join(', ')
  const unnest = table.columns.map((_, i) => `$${i + 1}::text[]`).join(', ')
  const casts = table.columns.map((c, i) => `u.c${i}::${c.type}`).join(', ')
  const aliases = table.columns.map((_, i) => `c${i}`).join(', ')
  const passes = table.selfKeys.length
    ? [table.selfKeys.map(k => `${quote(k)} IS NULL`).join(' AND '), `NOT (${table.selfKeys.map(k => `${quote(k)} IS NULL`).join(' AND ')})`]
    : ['true']
  for (const filter of passes) {
    for (let after = '(0,0)'; ;) {
      const rows = await source.query<Record<string, string | null>>(
        `SELECT ctid::text AS "__ctid", ${asText} FROM ${quote(table.name)} WHERE ctid > $1::tid AND (${filter}) ORDER BY ctid LIMIT ${BATCH_ROWS}`,
        [after],
      )
      if (rows.length === 0) break
      const values = table.columns.map(c => rows.map(r => r[c.name]))
      await target.query(`INSERT INTO ${quote(table.name)} (${list}) SELECT ${casts} FROM unnest(${unnest}) AS u(${aliases})`, values)
      after = rows[rows.length - 1].__ctid!
    }
  }
}

async function blobFiles(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter(e => e.isFile() && !e.name.endsWith('.type') && !e.name.endsWith('.tmp'))
    .map(e => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
}

/**
 * Copies `source` (the embedded database, read only) and the originals under `blobsDir` into `target`, which must
 * have no rows; all in one transaction on the target, whose counts are checked against the source's before it
 * commits. Throws (leaving the target as it was) when the target is not empty or a count differs.
 */
export async function copyDatabase(source: Database, target: Database, blobsDir: string, log: (line: string) => void = () => {}): Promise<CopyReport> {
  const tables = await tablesOf(source.sql)
  const targetTables = new Map((await tablesOf(target.sql)).map(t => [t.name, t]))
  for (const table of tables) {
    const other = targetTables.get(table.name)
    if (!other || JSON.stringify(other.columns) !== JSON.stringify(table.columns)) throw new Error(`table ${table.name} differs between the two databases: are both on the same version of the service?`)
    if ((await countRows(target.sql, table.name)) > 0) throw new Error(`the target database is not empty (table ${table.name} has rows): copy into a new database, before any process of the service has started on it`)
  }
  const files = await blobFiles(blobsDir)
  return target.sql.transaction(async tx => {
    const report: CopyReport = { tables: [], blobs: 0 }
    for (const table of tables) await tx.exec(`ALTER TABLE ${quote(table.name)} DISABLE TRIGGER USER`)
    for (const table of tables) {
      await copyTable(source.sql, tx, table)
      const [expected, copied] = [await countRows(source.sql, table.name), await countRows(tx, table.name)]
      if (copied !== expected) throw new Error(`table ${table.name}: ${copied} rows copied, ${expected} in the embedded database`)
      report.tables.push({ table: table.name, rows: copied })
      log(`${table.name}: ${copied} rows`)
    }
    const blobs = fileBlobStore(blobsDir)
    for (const key of files) {
      const blob = await blobs.get(key)
      if (!blob) throw new Error(`stored original ${key} vanished during the copy`)
      const { data, contentType } = blob
      // a key that is also a row of the embedded "Blob" table (copied above) keeps the row: the one it read
      await tx.query(
        `INSERT INTO "Blob" (key, data, "contentType", size) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO NOTHING`,
        [key, data, contentType, data.byteLength],
      )
      report.blobs++
    }
    log(`stored originals: ${report.blobs} files into the Blob table`)
    for (const table of tables) await tx.exec(`ALTER TABLE ${quote(table.name)} ENABLE TRIGGER USER`)
    return report
  })
}
