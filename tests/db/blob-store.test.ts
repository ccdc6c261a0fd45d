// The embedded database's blob store (lib/db/blob-store.ts): small blobs rows of its "Blob" table, larger ones files,
// each with its content type in a file beside it unless it is plain text.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { embeddedBlobStore, fileBlobStore, originalKey, PLAIN_TEXT, readOriginalBlob, removeStoredOriginal, SMALL_BLOB_BYTES } from '@/lib/db/blob-store'
import { putBlobRows } from '@/lib/db/blob-rows'
import { getDatabase } from '@/lib/db/client'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-blobs-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const store = fileBlobStore(root)
const text = (s: string) => new TextEncoder().encode(s)

describe('the file blob store', () => {
  test('plain text is stored without a type file and read back as plain text', async () => {
    await store.put('datasources/a/original', text('hello'), PLAIN_TEXT)
    expect(fs.existsSync(path.join(root, 'datasources/a/original.type'))).toBe(false)
    const blob = await store.get('datasources/a/original')
    expect(blob && { text: new TextDecoder().decode(blob.data), contentType: blob.contentType }).toEqual({ text: 'hello', contentType: PLAIN_TEXT })
  })

  test('another type is kept beside the blob, and replaced when the blob becomes plain text', async () => {
    await store.put('datasources/b/original', text('%PDF-1.4'), 'application/pdf')
    expect((await store.get('datasources/b/original'))?.contentType).toBe('application/pdf')
    await store.put('datasources/b/original', text('now text'), PLAIN_TEXT)
    expect((await store.get('datasources/b/original'))?.contentType).toBe(PLAIN_TEXT)
    await store.put('datasources/b/original', text('<p>hi</p>'), 'text/html')
    expect((await store.get('datasources/b/original'))?.contentType).toBe('text/html')
  })

  test('a missing blob is null; removing a prefix removes its blobs and their types', async () => {
    expect(await store.get('datasources/none/original')).toBeNull()
    await store.put('datasources/c/original', text('x'), 'text/csv')
    await store.remove(['datasources/c'])
    expect(await store.get('datasources/c/original')).toBeNull()
    expect(fs.existsSync(path.join(root, 'datasources/c'))).toBe(false)
  })

  test("originals share one folder, made by the first write; an earlier version's folder a datasource is still read and removed", async () => {
    const fresh = fileBlobStore(fs.mkdtempSync(path.join(root, 'fresh-')))
    await fresh.put(originalKey('ds_new'), text('new'), PLAIN_TEXT)
    await fresh.put(originalKey('ds_next'), text('next'), PLAIN_TEXT)
    const read = async (id: string) => { const blob = await readOriginalBlob(id, fresh); return blob && new TextDecoder().decode(blob.data) }
    expect([await read('ds_new'), await read('ds_next')]).toEqual(['new', 'next'])
    expect(originalKey('ds_new')).toBe('originals/ds_new')

    await fresh.put('datasources/ds_old/original', text('from before'), 'text/markdown')
    expect(await read('ds_old')).toBe('from before')
    expect((await readOriginalBlob('ds_old', fresh))?.contentType).toBe('text/markdown')
    await removeStoredOriginal('ds_old', fresh)
    await removeStoredOriginal('ds_new', fresh)
    expect([await read('ds_old'), await read('ds_new'), await read('ds_next')]).toEqual([null, null, 'next'])
    expect(await fresh.get('datasources/ds_old/original.type')).toBeNull()
  })
})

describe("the embedded database's store: small blobs are rows, larger ones files", () => {
  const folder = fs.mkdtempSync(path.join(root, 'embedded-'))
  const rowsOf = async (key: string) => (await (await getDatabase()).sql.query<{ size: number }>(`SELECT size FROM "Blob" WHERE key = $1`, [key])).length
  const store = async () => embeddedBlobStore(folder, (await getDatabase()).sql)

  test('an upsert-sized document is a row, written with the others in one statement; no file is made', async () => {
    const blobs = await store()
    await blobs.putMany([{ key: 'originals/ds_a', data: text('alpha'), contentType: PLAIN_TEXT }, { key: 'originals/ds_b', data: text('beta'), contentType: 'text/markdown' }])
    expect([await rowsOf('originals/ds_a'), await rowsOf('originals/ds_b')]).toEqual([1, 1])
    expect(fs.existsSync(path.join(folder, 'originals'))).toBe(false)
    expect(await blobs.get('originals/ds_b')).toEqual({ data: text('beta'), contentType: 'text/markdown' })
    // bytes go to the database as they are: zero, a backslash and an "x" (bytea's text escape), high bytes
    const bytes = new Uint8Array([0, 92, 120, 48, 255, 254, 0])
    await blobs.put('originals/ds_bytes', bytes, 'application/octet-stream')
    expect((await blobs.get('originals/ds_bytes'))?.data).toEqual(bytes)
  })

  test('a blob over the limit is a file, and replaces the row its key had; a short one again replaces the file', async () => {
    const blobs = await store()
    const large = new Uint8Array(SMALL_BLOB_BYTES + 1).fill(65)
    await blobs.put('originals/ds_c', text('short'), PLAIN_TEXT)
    await blobs.put('originals/ds_c', large, 'application/pdf')
    expect(await rowsOf('originals/ds_c')).toBe(0)
    expect(fs.statSync(path.join(folder, 'originals/ds_c')).size).toBe(SMALL_BLOB_BYTES + 1)
    expect((await blobs.get('originals/ds_c'))?.contentType).toBe('application/pdf')
    await blobs.put('originals/ds_c', text('short again'), PLAIN_TEXT)
    expect(await blobs.get('originals/ds_c')).toEqual({ data: text('short again'), contentType: PLAIN_TEXT })
  })

  test("removing a datasource's original removes its row, its file and an earlier version's folder", async () => {
    const blobs = await store()
    await blobs.put(originalKey('ds_d'), text('row'), PLAIN_TEXT)
    await fileBlobStore(folder).put('datasources/ds_e/original', text('from before'), PLAIN_TEXT)
    expect(new TextDecoder().decode((await readOriginalBlob('ds_e', blobs))!.data)).toBe('from before')
    await removeStoredOriginal('ds_d', blobs)
    await removeStoredOriginal('ds_e', blobs)
    expect([await readOriginalBlob('ds_d', blobs), await readOriginalBlob('ds_e', blobs), await rowsOf(originalKey('ds_d'))]).toEqual([null, null, 0])
    expect(fs.existsSync(path.join(folder, 'datasources/ds_e'))).toBe(false)
  })
})

describe('rows written together', () => {
  test('one statement for up to 500 rows or 4 MB, so that no statement grows the embedded database for good', async () => {
    const statements: number[] = []
    const sql = { kind: 'pglite' as const, exec: async () => {}, query: async (_: string, params?: unknown[]) => (statements.push((params?.length ?? 0) / 4), []) }
    const entry = (i: number, bytes: number) => ({ key: `originals/ds_${i}`, data: new Uint8Array(bytes), contentType: PLAIN_TEXT })
    await putBlobRows(sql, Array.from({ length: 1200 }, (_, i) => entry(i, 10)))
    expect(statements).toEqual([500, 500, 200])
    statements.length = 0
    await putBlobRows(sql, Array.from({ length: 20 }, (_, i) => entry(i, 250 * 1024)))
    expect(statements).toEqual([16, 4])
  })
})
