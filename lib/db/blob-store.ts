import fs from 'node:fs/promises'
import path from 'node:path'
import { dataDir } from '@/lib/config'
import { getDatabase } from './client'

/**
 * Where uploaded originals live: files under DATA_DIR/blobs with the embedded database, a table in Postgres when
 * DATABASE_URL is set (so any worker on any machine reads what any web process stored). Keys are paths like
 * "originals/<id>"; callers build them, never from user input.
 */
export interface StoredBlob {
  data: Uint8Array
  contentType: string
}

export interface BlobStore {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>
  /** Stores a file on disk, which is moved (the file store) or read once (the table store): an upload's original. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>
  get(key: string): Promise<StoredBlob | null>
  /** Removes the key and every key below it ("datasources/abc" removes "datasources/abc/original"). */
  remove(prefix: string): Promise<void>
}

/**
 * The content type of a file-store blob without a `.type` file beside it: upserted documents are plain text, and
 * one file fewer each (opened, written and closed on upsert, read on sync) is a tenth of an upsert's time.
 */
export const PLAIN_TEXT = 'text/plain; charset=utf-8'

/**
 * The original of a file or text datasource, written by the upload or upsert and read by the sync worker: one file
 * in one folder for all of them. A folder a datasource ("datasources/<id>/original", before) cost a directory made on
 * every upsert and removed with it: ~0.9 ms of the kernel's CPU each on ext4, more than writing the file itself.
 */
export function originalKey(datasourceId: string): string {
  return `originals/${datasourceId}`
}

/** Where originals stored before the flat folder are: still read, and removed with their datasource. */
function folderOriginalKey(datasourceId: string): string {
  return `datasources/${datasourceId}/original`
}

/** A datasource's stored original, wherever this version or an earlier one put it; null when it has none. */
export async function readOriginalBlob(datasourceId: string, store?: BlobStore): Promise<StoredBlob | null> {
  const blobs = store ?? (await getBlobStore())
  return (await blobs.get(originalKey(datasourceId))) ?? (await blobs.get(folderOriginalKey(datasourceId)))
}

/** Removes what is stored for a datasource: its original, in the flat folder or the folder of its own from before. */
export async function removeStoredOriginal(datasourceId: string, store?: BlobStore): Promise<void> {
  const blobs = store ?? (await getBlobStore())
  await blobs.remove(originalKey(datasourceId))
  await blobs.remove(`datasources/${datasourceId}`)
}

function safeKey(key: string): string {
  if (!/^[A-Za-z0-9_\-/.]+$/.test(key) || key.includes('..')) throw new Error(`invalid blob key ${key}`)
  return key
}

export function fileBlobStore(root: string): BlobStore {
  const file = (key: string) => path.join(root, safeKey(key))
  return {
    async put(key, data, contentType) {
      // write then rename: a reader never sees half a file
      const tmp = `${file(key)}.${process.pid}.tmp`
      await writeMakingFolder(tmp, data)
      await writeType(file(key), contentType)
      await fs.rename(tmp, file(key))
    },
    async putFile(key, filePath, contentType) {
      await fs.mkdir(path.dirname(file(key)), { recursive: true })
      await writeType(file(key), contentType)
      try {
        await fs.rename(filePath, file(key))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
        // another file system: copied, then renamed into place so that a reader never sees half a file
        const tmp = `${file(key)}.${process.pid}.tmp`
        await fs.copyFile(filePath, tmp)
        await fs.rename(tmp, file(key))
      }
    },
    async get(key) {
      const [data, contentType] = await Promise.all([readIfThere(file(key)), readIfThere(`${file(key)}.type`)])
      return data ? { data: new Uint8Array(data), contentType: contentType?.toString('utf8') ?? PLAIN_TEXT } : null
    },
    async remove(prefix) {
      const target = file(prefix)
      await fs.rm(target, { recursive: true, force: true })
      await fs.rm(`${target}.type`, { force: true })
    },
  }
}

// the folder is made only when the write finds it missing: all originals share one, made once
async function writeMakingFolder(file: string, data: Uint8Array): Promise<void> {
  try {
    await fs.writeFile(file, data)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await fs.mkdir(path.dirname(file), { recursive: true })
    await fs.writeFile(file, data)
  }
}

// the type beside the blob, written before the blob is renamed into place; none for plain text (a stale one removed)
async function writeType(blobFile: string, contentType: string): Promise<void> {
  if (contentType === PLAIN_TEXT) await fs.rm(`${blobFile}.type`, { force: true })
  else await fs.writeFile(`${blobFile}.type`, contentType)
}

async function readIfThere(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function tableBlobStore(): BlobStore {
  return {
    async put(key, data, contentType) {
      const { prisma } = await getDatabase()
      const bytes = new Uint8Array(data)
      await prisma.blob.upsert({
        where: { key: safeKey(key) },
        create: { key, data: bytes, contentType, size: bytes.byteLength },
        update: { data: bytes, contentType, size: bytes.byteLength },
      })
    },
    async putFile(key, filePath, contentType) {
      await this.put(key, new Uint8Array(await fs.readFile(filePath)), contentType)
    },
    async get(key) {
      const { prisma } = await getDatabase()
      const blob = await prisma.blob.findUnique({ where: { key: safeKey(key) } })
      return blob ? { data: new Uint8Array(blob.data), contentType: blob.contentType } : null
    },
    async remove(prefix) {
      const { prisma } = await getDatabase()
      await prisma.blob.deleteMany({ where: { OR: [{ key: safeKey(prefix) }, { key: { startsWith: `${prefix}/` } }] } })
    },
  }
}

export async function getBlobStore(): Promise<BlobStore> {
  const db = await getDatabase()
  return db.kind === 'postgres' ? tableBlobStore() : fileBlobStore(path.join(dataDir(), 'blobs'))
}
