import fs from 'node:fs/promises'
import path from 'node:path'
import { dataDir } from '@/lib/config'
import { fileBlobStore, type BlobStore, type StoredBlob } from './blob-files'
import { getBlobRow, getBlobRows, putBlobRows, removeBlobRows } from './blob-rows'
import { getDatabase } from './client'
import type { SqlStatements } from './sql-driver'

export { fileBlobStore, PLAIN_TEXT, type BlobEntry, type BlobStore, type StoredBlob } from './blob-files'

/**
 * Where originals live. On PostgreSQL, rows of its "Blob" table (so any worker on any machine reads what any web
 * process stored). In the embedded database, those up to SMALL_BLOB_BYTES are rows of its "Blob" table too (an
 * upserted document's text), written in one statement a request; larger ones, and uploaded files (streamed to disk
 * already, then moved into place), are files under DATA_DIR/blobs, which the database's WebAssembly memory never
 * holds. A file costs ~1 ms of the kernel's CPU to create, rename and look up beside on ext4 (here, 2 cores), as much
 * as the sync's whole work on a short document; a row, ~0.1 ms of the database's thread.
 */
export async function getBlobStore(): Promise<BlobStore> {
  const db = await getDatabase()
  return db.kind === 'postgres' ? tableBlobStore(db.sql) : embeddedBlobStore(path.join(dataDir(), 'blobs'), db.sql)
}

/** The largest blob the embedded database keeps as a row; a larger one is a file. */
export const SMALL_BLOB_BYTES = 256 * 1024

/** The original of a file or text datasource, written by the upload or upsert and read by the sync worker. */
export function originalKey(datasourceId: string): string {
  return `originals/${datasourceId}`
}

// Where originals were before: a folder a datasource, which cost a directory made on every upsert (~0.9 ms of the
// kernel's CPU each on ext4, more than the file). Still read, and removed with their datasource.
function folderOriginalKey(datasourceId: string): string {
  return `datasources/${datasourceId}/original`
}

/** A datasource's stored original, wherever this version or an earlier one put it; null when it has none. */
export async function readOriginalBlob(datasourceId: string, store?: BlobStore): Promise<StoredBlob | null> {
  const blobs = store ?? (await getBlobStore())
  return (await blobs.get(originalKey(datasourceId))) ?? (await blobs.get(folderOriginalKey(datasourceId)))
}

/**
 * The originals of these datasources that are rows (every one on PostgreSQL, the small ones in the embedded
 * database), by datasource id, in one statement: the sync worker reads a batch's with its claim, not one by one
 * behind the writes that hold the embedded database. The others are read one by one (readOriginalBlob).
 */
export async function readOriginalRows(datasourceIds: string[]): Promise<Map<string, StoredBlob>> {
  const rows = await getBlobRows((await getDatabase()).sql, datasourceIds.map(originalKey))
  return new Map(datasourceIds.flatMap(id => {
    const row = rows.get(originalKey(id))
    return row ? [[id, row] as const] : []
  }))
}

/** Removes what is stored for a datasource: its original, and the folder of its own an earlier version made. */
export async function removeStoredOriginal(datasourceId: string, store?: BlobStore): Promise<void> {
  const blobs = store ?? (await getBlobStore())
  await blobs.remove([originalKey(datasourceId), folderOriginalKey(datasourceId), `datasources/${datasourceId}`])
}

function tableBlobStore(sql: SqlStatements): BlobStore {
  return {
    put: (key, data, contentType) => putBlobRows(sql, [{ key, data, contentType }]),
    putMany: entries => putBlobRows(sql, entries),
    putFile: async (key, filePath, contentType) => putBlobRows(sql, [{ key, data: new Uint8Array(await fs.readFile(filePath)), contentType }]),
    get: key => getBlobRow(sql, key),
    remove: keys => removeBlobRows(sql, keys),
  }
}

/**
 * Small blobs as rows, large ones as files (see getBlobStore). A key's row is read first, then its file: a file left
 * under a key that is now a row (a document replaced by a shorter one) is never read, and goes with its datasource;
 * a file written under a key removes the key's row.
 */
export function embeddedBlobStore(root: string, sql: SqlStatements): BlobStore {
  const files = fileBlobStore(root)
  const small = (data: Uint8Array) => data.byteLength <= SMALL_BLOB_BYTES
  const store: BlobStore = {
    put: (key, data, contentType) => store.putMany([{ key, data, contentType }]),
    async putMany(entries) {
      await putBlobRows(sql, entries.filter(e => small(e.data)))
      const large = entries.filter(e => !small(e.data))
      await removeBlobRows(sql, large.map(e => e.key))
      await files.putMany(large)
    },
    async putFile(key, filePath, contentType) {
      await removeBlobRows(sql, [key])
      await files.putFile(key, filePath, contentType)
    },
    get: async key => (await getBlobRow(sql, key)) ?? (await files.get(key)),
    async remove(keys) {
      await removeBlobRows(sql, keys)
      await files.remove(keys)
    },
  }
  return store
}
