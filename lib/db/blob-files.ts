import fs from 'node:fs/promises'
import path from 'node:path'

/** A stored blob: its bytes and their content type. */
export interface StoredBlob {
  data: Uint8Array
  contentType: string
}

export interface BlobEntry extends StoredBlob {
  key: string
}

/**
 * Where originals live (lib/db/blob-store.ts chooses): keys are paths like "originals/<id>"; callers build them,
 * never from user input.
 */
export interface BlobStore {
  put(key: string, data: Uint8Array, contentType: string): Promise<void>
  /** Stores several at once: an upsert's documents (one statement where they are rows). */
  putMany(entries: BlobEntry[]): Promise<void>
  /** Stores a file on disk, which is moved (the file store) or read once (the table store): an upload's original. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>
  get(key: string): Promise<StoredBlob | null>
  /** Removes these keys; in the file store a key naming a folder removes the folder and what is in it. */
  remove(keys: string[]): Promise<void>
}

/**
 * The content type of a file-store blob without a `.type` file beside it: upserted documents are plain text, and
 * one file fewer each (opened, written and closed on upsert, read on sync) is a tenth of an upsert's time.
 */
export const PLAIN_TEXT = 'text/plain; charset=utf-8'

const PARALLEL_WRITES = 16

export function safeKey(key: string): string {
  if (!/^[A-Za-z0-9_\-/.]+$/.test(key) || key.includes('..')) throw new Error(`invalid blob key ${key}`)
  return key
}

/** Blobs as files under `root`, each with its content type in a file beside it unless it is plain text. */
export function fileBlobStore(root: string): BlobStore {
  const file = (key: string) => path.join(root, safeKey(key))
  const store: BlobStore = {
    async put(key, data, contentType) {
      // write then rename: a reader never sees half a file
      const tmp = `${file(key)}.${process.pid}.tmp`
      await writeMakingFolder(tmp, data)
      await writeType(file(key), contentType)
      await fs.rename(tmp, file(key))
    },
    async putMany(entries) {
      for (let start = 0; start < entries.length; start += PARALLEL_WRITES) {
        await Promise.all(entries.slice(start, start + PARALLEL_WRITES).map(e => store.put(e.key, e.data, e.contentType)))
      }
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
    async remove(keys) {
      for (const key of keys) {
        await fs.rm(file(key), { recursive: true, force: true })
        await fs.rm(`${file(key)}.type`, { force: true })
      }
    },
  }
  return store
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
