// The file blob store of the embedded database (lib/db/blob-store.ts): a blob and, unless it is plain text, its
// content type in a file beside it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fileBlobStore, originalKey, PLAIN_TEXT, readOriginalBlob, removeStoredOriginal } from '@/lib/db/blob-store'

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
    await store.remove('datasources/c')
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
